// Package durable is the embedded host's database: every session's AHP
// state kept in one go.etcd.io/bbolt file (state.db) in the host's state
// directory, so that a restart, an upgrade or a crash of the host loses
// nothing a client was ever sent (issue 28).
//
// The package stores bytes; it knows channels, serverSeqs and resources,
// not AHP types. Package ahphost encodes the states and actions and
// rebuilds its state from them with package ahpstate's reducers.
//
// # Layout
//
//	meta/seq        the last serverSeq a commit covered (8 bytes, big endian)
//	meta/instance   a random id made when the file was created
//	meta/format     the layout version (formatVersion)
//	chans/<uri>/    one bucket per channel (session, chat, terminal, changeset):
//	    meta        the host's own fields of the channel (JSON, opaque here)
//	    snapshot/state  the channel's state at serverSeq snapseq (JSON), in
//	                a bucket of its own so that appending to the log does
//	                not rewrite it (format 1 kept it in a value "snap" here)
//	    snapseq     8 bytes, big endian
//	    log/<seq>   action envelopes after snapseq, several per record (a
//	                commit's envelopes of one channel go in one record,
//	                keyed by the first one's serverSeq); a record longer
//	                than 4000 bytes continues in values keyed <seq><chunk>
//	resc/<uri>/d    resources served by resourceRead: their bytes, each
//	                in a bucket of its own, so that storing one does not
//	                rewrite others (format 3)
//	restype/<uri>   their content types
//	res/<uri>       formats 1 and 2: a resource's bytes whole (format 1:
//	                its content type, a 0 byte, then the bytes)
//
// A channel is its snapshot plus its log replayed in order. The host reads
// every channel but the chats at start (LoadLazy: of a chat only its meta
// and its snapshot's size) and a chat when it is first used (Channel). A new snapshot
// replaces the log; the host takes one when the log has grown past the
// snapshot's size, so writing stays linear in what was streamed and
// restoring a channel reads at most about twice its state.
//
// # Write-ahead
//
// The host groups the actions of every channel into one Batch and writes
// it with Commit, one bbolt transaction (fsync'd) per batch; its
// connections write nothing stamped with a serverSeq above the last
// committed one. See ahphost's persist_writeahead.go for the rule.
//
// # One writer
//
// Open takes bbolt's exclusive lock on the file and records the owning
// process in owner.json beside it; a second Open on the same directory
// fails at once with a *LockedError naming that process. A file bbolt or
// this package cannot read makes Open (or Load) fail with a *CorruptError;
// the file is never modified or removed on that path. Before bbolt opens
// the file for writing, Open checks that it is as long as its last commit
// (length.go) and reads every page once, read-only, where a damaged page is
// recovered into that error (walk.go); a file of a layout version this
// build does not read is a *VersionError.
//
// # Compaction
//
// bbolt never shrinks its file: freed pages are reused and keep their old
// bytes until then. Open compacts a file whose free pages are a third or
// more of it (compact.go): the kept data is copied into state.db.compact,
// which is synced and renamed over state.db while this process holds both
// files' locks, so the space goes back to the file system and the bytes of
// disposed sessions leave the file. A failed copy is removed and the old
// file used as it was (CompactError).
package durable
