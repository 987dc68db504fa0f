package ahphost

import (
	"strings"
	"testing"
	"time"
)

// TestDurableDisposeDeletesTerminalsAndChanges: disposing of a session
// whose turns ran a terminal (/demo shell) and made a changeset with
// stored diff sides (/demo edit) removes them from memory, from the root
// state's terminal list and from the database; another session's
// terminal, changeset and contents stay, also after a restart.
func TestDurableDisposeDeletesTerminalsAndChanges(t *testing.T) {
	state := t.TempDir()
	h, u := startDurable(t, state, Options{Pace: time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	for _, s := range []string{"gone", "stays"} {
		chat := w.createSession("ahp-session:/" + s)
		rawChat(t, w, chat)
		runTurn(t, w, chat, s+"1", "/demo shell", 1)
		runTurn(t, w, chat, s+"2", "/demo edit", 2)
	}
	// held lists what the host holds of a session: in memory, in the root
	// state and in the database.
	held := func(h *Host, s string) (mem, root, stored []string) {
		h.mu.Lock()
		defer h.mu.Unlock()
		for uri := range h.st.ext.terminals {
			if strings.Contains(uri, ":/"+s+"/") {
				mem = append(mem, uri)
			}
		}
		for uri := range h.st.ext.changesets {
			if strings.Contains(uri, ":/"+s+"/") {
				mem = append(mem, uri)
			}
		}
		for _, raw := range h.st.root.Terminals {
			if strings.Contains(string(raw), ":/"+s+"/") {
				root = append(root, string(raw))
			}
		}
		st, err := h.st.persist.db.Load()
		must(t, err)
		for _, ch := range st.Channels {
			if strings.Contains(ch.URI, ":/"+s) {
				stored = append(stored, ch.URI)
			}
		}
		for _, side := range []string{"before/cmd/app/main.go", "after/cmd/app/main.go"} {
			for uri := range h.st.ext.resources.items {
				if strings.HasPrefix(uri, "ahp-content:/"+s+"/") && strings.HasSuffix(uri, side) {
					mem = append(mem, uri)
				}
			}
		}
		return mem, root, stored
	}
	// Its terminal, changeset and two diff sides; the terminal listed;
	// session, chat, annotations, terminal and changeset channels stored.
	mem, root, stored := held(h, "gone")
	if len(mem) != 4 || len(root) != 1 || len(stored) != 5 {
		t.Fatalf("the session to dispose holds: mem %v, root %v, stored %v", mem, root, stored)
	}
	w.call("disposeSession", map[string]any{"channel": "ahp-session:/gone"})
	waitUntil(t, "the disposal committed", func() bool {
		mem, root, stored := held(h, "gone")
		h.mu.Lock()
		h.st.persist.kick()
		h.mu.Unlock()
		return len(mem) == 0 && len(root) == 0 && len(stored) == 0
	})
	keptMem, keptRoot, keptStored := held(h, "stays")
	w.close()
	must(t, h.Close())

	h2, _ := startDurable(t, state, Options{})
	if mem, root, stored := held(h2, "gone"); len(mem)+len(root)+len(stored) != 0 {
		t.Fatalf("after a restart the disposed session's parts are back: %v %v %v", mem, root, stored)
	}
	mem, root, stored = held(h2, "stays")
	if len(root) != len(keptRoot) || len(stored) != len(keptStored) || len(root) != 1 || len(mem) < 2 || len(keptMem) < 3 {
		t.Fatalf("the other session: mem %v→%v, root %v→%v, stored %v→%v", keptMem, mem, keptRoot, root, keptStored, stored)
	}
}
