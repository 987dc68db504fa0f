package tui

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/tui/dialog"
)

// Prompt history: what the user sent, across sessions and restarts, like a
// shell's. The CLI names one file per host under the state directory
// (Options.HistoryFile); it is read once at start and appended to after
// every send, both in commands (never in Update). Entries are masked with
// internal/redact before they are written, so a token pasted into a prompt
// never lands on disk, and both the number of entries and the size of one
// entry are bounded.
const (
	historyMaxEntries    = 1000
	historyMaxEntryBytes = 16 << 10
)

// promptHistory is the history shared by every chat's composer.
type promptHistory struct {
	path    string   // "" = kept in memory only
	entries []string // oldest first
}

// historyLoadedMsg carries the entries read from the history file.
type historyLoadedMsg struct {
	entries []string
	err     error
}

// historySavedMsg reports a failed write (success is silent).
type historySavedMsg struct{ err error }

// historyLine is one line of the history file (JSON lines).
type historyLine struct {
	Text string `json:"text"`
}

// add records a sent prompt and returns the command that appends it to the
// file; prompts too long to keep are left out.
func (h *promptHistory) add(text string) tea.Cmd {
	if h == nil || strings.TrimSpace(text) == "" || len(text) > historyMaxEntryBytes {
		return nil
	}
	text = redact.String(text)
	if n := len(h.entries); n > 0 && h.entries[n-1] == text {
		return nil
	}
	h.entries = append(h.entries, text)
	if len(h.entries) > historyMaxEntries {
		h.entries = append([]string(nil), h.entries[len(h.entries)-historyMaxEntries:]...)
	}
	if h.path == "" {
		return nil
	}
	path, all := h.path, append([]string(nil), h.entries...)
	return func() tea.Msg { return historySavedMsg{err: appendHistory(path, text, all)} }
}

// loaded merges the entries read from the file before those added since.
func (h *promptHistory) loaded(entries []string) {
	merged := append(append([]string(nil), entries...), h.entries...)
	if len(merged) > historyMaxEntries {
		merged = merged[len(merged)-historyMaxEntries:]
	}
	h.entries = merged
}

// loadHistory reads the history file (a missing file is an empty history).
func loadHistory(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		entries, err := readHistory(path)
		return historyLoadedMsg{entries: entries, err: err}
	}
}

func readHistory(path string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("prompt history: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4*historyMaxEntryBytes)
	for sc.Scan() {
		var l historyLine
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Text != "" {
			out = append(out, redact.String(l.Text))
		}
	}
	if len(out) > historyMaxEntries {
		out = out[len(out)-historyMaxEntries:]
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("prompt history %s: %w", path, err)
	}
	return out, nil
}

// appendHistory appends text to the file, or rewrites the file with the
// newest entries (all) when it has grown past twice the bound.
func appendHistory(path, text string, all []string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("prompt history: %w", err)
	}
	if st, err := os.Stat(path); err == nil && st.Size() > int64(2*historyMaxEntries*256) {
		if n, _ := countLines(path); n >= 2*historyMaxEntries {
			return rewriteHistory(path, all)
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("prompt history: %w", err)
	}
	b, _ := json.Marshal(historyLine{Text: text})
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("prompt history %s: %w", path, err)
	}
	return nil
}

func countLines(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("prompt history: %w", err)
	}
	return strings.Count(string(b), "\n"), nil
}

// rewriteHistory replaces the file with entries (atomically).
func rewriteHistory(path string, entries []string) error {
	var b strings.Builder
	for _, e := range entries {
		j, _ := json.Marshal(historyLine{Text: e})
		b.Write(j)
		b.WriteByte('\n')
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("prompt history: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("prompt history: %w", err)
	}
	return nil
}

// seedComposer gives a new composer the shared history (oldest first).
func (h *promptHistory) seedComposer(c *composer) {
	if h == nil {
		return
	}
	c.SetHistory(h.entries)
}

// onHistory handles the messages of the prompt history.
func (m *Model) onHistory(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case historyLoadedMsg:
		if msg.err != nil {
			m.c.log.Warn("prompt history", "err", msg.err)
		}
		m.c.hist.loaded(msg.entries)
		if m.chat != nil && m.chat.comp.Value() == "" {
			m.c.hist.seedComposer(&m.chat.comp)
		}
		return nil
	case historySavedMsg:
		if msg.err != nil {
			m.c.log.Warn("prompt history", "err", msg.err)
		}
		return nil
	case dialog.HistoryPickedMsg:
		if m.chat == nil {
			return nil
		}
		m.chat.comp.SetDraft(msg.Text)
		m.chat.relayout()
		return m.chat.setFocus(focusComposer)
	}
	return nil
}
