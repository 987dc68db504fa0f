// What disposeSession removes beyond the session's own channels: the
// changesets and stored contents its chats' agents made (issue 28: a
// disposed session is deleted from the database, diff sides included).

package ahphost

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// contentScheme is the scheme of the contents the in-repo agents store
// with agent.Channels.PutResource.
const contentScheme = "ahp-content:"

// chatOwned returns the URI prefixes of the changesets and contents that
// belong to chat: the in-repo agents name them after the chat's key (the
// URI's path), ahp-changeset:/KEY/… and ahp-content:/KEY/… (ahphost/demo),
// ahp-content:/acp/KEY/… (ahphost/acp).
func chatOwned(chat string) (changesets, contents []string) {
	key := strings.TrimPrefix(strings.TrimPrefix(chat, ahpwire.ChatScheme), "/")
	if key == "" {
		return nil, nil
	}
	return []string{ahpwire.ChangesetScheme + "/" + key + "/"},
		[]string{contentScheme + "/" + key + "/", contentScheme + "/acp/" + key + "/"}
}

// disposeOwned removes the changesets and contents of a disposed
// session's chats from memory and from the database. A prefix that also
// covers a chat of another session (a session URI that extends this one's,
// "s" and "s/x") is left alone: nothing of another session is removed.
func (s *store) disposeOwned(chats []string) {
	var others []string
	for _, se := range s.sessions {
		for _, cs := range se.state.Chats {
			others = append(others, cs.Resource)
		}
	}
	shared := func(chat string) bool {
		for _, o := range others {
			if strings.HasPrefix(o, chat+"/") {
				return true
			}
		}
		return false
	}
	for _, chat := range chats {
		if shared(chat) {
			continue
		}
		changesets, contents := chatOwned(chat)
		for _, prefix := range changesets {
			for uri := range s.ext.changesets {
				if strings.HasPrefix(uri, prefix) {
					delete(s.ext.changesets, uri)
					s.dropChannel(uri)
					s.persistDeleted(uri)
				}
			}
		}
		for _, prefix := range contents {
			s.ext.resources.removePrefix(prefix)
			if p := s.persist; p != nil {
				p.batch.DeleteResources(prefix)
				p.kick()
			}
		}
	}
}

// removePrefix forgets every resource whose URI starts with prefix (its
// spill file too).
func (r *resourceStore) removePrefix(prefix string) {
	for uri, it := range r.items {
		if !strings.HasPrefix(uri, prefix) {
			continue
		}
		delete(r.items, uri)
		if it.path != "" {
			r.spill.forget(it.path, it.size)
		} else if it.db == nil {
			r.bytes -= int64(len(it.data))
			r.order = removeURI(r.order, uri)
		}
	}
}
