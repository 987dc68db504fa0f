// What disposeSession removes beyond the session's own channels: the
// changesets, stored contents and terminals its chats' agents made (issue
// 28: a disposed session is deleted from the database, diff sides and
// terminal output included).

package ahphost

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// contentScheme is the scheme of the contents the in-repo agents store
// with agent.Channels.PutResource.
const contentScheme = "ahp-content:"

// owned are the URI prefixes of what belongs to one chat.
type owned struct {
	changesets, contents, terminals []string
}

// chatOwned returns the URI prefixes of the changesets, contents and
// terminals that belong to chat: the in-repo agents name them after the
// chat's key (the URI's path): ahp-changeset:/KEY/…, ahp-content:/KEY/…
// and ahp-terminal:/KEY/… (ahphost/demo), ahp-content:/acp/KEY/… and
// ahp-terminal:/KEY-… (ahphost/acp).
func chatOwned(chat string) owned {
	key := strings.TrimPrefix(strings.TrimPrefix(chat, ahpwire.ChatScheme), "/")
	if key == "" {
		return owned{}
	}
	return owned{
		changesets: []string{ahpwire.ChangesetScheme + "/" + key + "/"},
		contents:   []string{contentScheme + "/" + key + "/", contentScheme + "/acp/" + key + "/"},
		terminals:  []string{ahpwire.TerminalScheme + "/" + key + "/", ahpwire.TerminalScheme + "/" + key + "-"},
	}
}

// disposeOwned removes the changesets and contents of a disposed
// session's chats from memory and from the database. A prefix that also
// covers a chat of another session (a session URI that extends this one's,
// "s" and "s/x") is left alone: nothing of another session is removed.
func (s *store) disposeOwned(chats []string) {
	others := s.chatsBesides(nil)
	terminals := false
	for _, chat := range chats {
		if ownsOthers(chat, others) {
			continue
		}
		own := chatOwned(chat)
		for _, prefix := range own.changesets {
			for uri := range s.ext.changesets {
				if strings.HasPrefix(uri, prefix) {
					delete(s.ext.changesets, uri)
					s.dropChannel(uri)
					s.persistDeleted(uri)
				}
			}
		}
		for _, prefix := range own.contents {
			s.ext.resources.removePrefix(prefix)
			if p := s.persist; p != nil {
				p.batch.DeleteResources(prefix)
				p.kick()
			}
		}
		for _, prefix := range own.terminals {
			for uri := range s.ext.terminals {
				if strings.HasPrefix(uri, prefix) {
					s.removeTerminal(uri)
					terminals = true
				}
			}
		}
	}
	if terminals {
		s.publishTerminals()
	}
}

// chatsBesides lists the chats of every session but skip (nil: of all).
func (s *store) chatsBesides(skip *sessionEntry) []string {
	var out []string
	for _, se := range s.sessions {
		if se == skip {
			continue
		}
		for _, cs := range se.state.Chats {
			out = append(out, cs.Resource)
		}
	}
	return out
}

// ownsOthers reports whether chat's prefixes (chatOwned) also cover one of
// others ("s" and "s/x", "s-x"): what they name may be another's.
func ownsOthers(chat string, others []string) bool {
	for _, o := range others {
		if strings.HasPrefix(o, chat+"/") || strings.HasPrefix(o, chat+"-") {
			return true
		}
	}
	return false
}

// removeTerminal forgets a terminal channel (its output, its place in the
// root state's list and in the bound of exited terminals' output) and
// deletes it from the database. The caller republishes the list.
func (s *store) removeTerminal(uri string) {
	delete(s.ext.terminals, uri)
	delete(s.ext.inputs, uri)
	delete(s.ext.resizes, uri)
	s.ext.termOrder = removeURI(s.ext.termOrder, uri)
	s.ext.retained.forget(uri)
	s.dropChannel(uri)
	s.persistDeleted(uri)
}

// removePrefix forgets every resource whose URI starts with prefix (its
// spill file too) and reports whether there was one.
func (r *resourceStore) removePrefix(prefix string) bool {
	found := false
	for uri, it := range r.items {
		if !strings.HasPrefix(uri, prefix) {
			continue
		}
		found = true
		delete(r.items, uri)
		if it.path != "" {
			r.spill.forget(it.path, it.size)
		} else if it.db == nil {
			r.bytes -= int64(len(it.data))
			r.order = removeURI(r.order, uri)
		}
	}
	return found
}
