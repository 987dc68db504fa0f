package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/internal/safefile"
)

// Prompt history: what the user sent, across sessions and restarts, like a
// shell's. The CLI names one file per host under the state directory
// (Options.HistoryFile); it is read once at start and appended to after
// every send, both in commands (never in Update). Entries are masked with
// internal/redact before they are written, so a token pasted into a prompt
// never lands on disk, and both the number of entries and the size of one
// entry are bounded.
const (
	HistoryMaxEntries    = 1000
	HistoryMaxEntryBytes = 16 << 10
)

// PromptHistory is the history shared by every chat's composer.
type PromptHistory struct {
	Path    string   // "" = kept in memory only
	Entries []string // oldest first
}

// HistoryLoadedMsg carries the entries read from the history file.
type HistoryLoadedMsg struct {
	Entries []string
	Err     error
}

// HistorySavedMsg reports a failed write (success is silent).
type HistorySavedMsg struct{ Err error }

// historyLine is one line of the history file (JSON lines).
type historyLine struct {
	Text string `json:"text"`
}

// Add records a sent prompt and returns the command that appends it to the
// file; prompts too long to keep are left out.
func (h *PromptHistory) Add(text string) tea.Cmd {
	if h == nil || strings.TrimSpace(text) == "" || len(text) > HistoryMaxEntryBytes {
		return nil
	}
	text = redact.String(text)
	if n := len(h.Entries); n > 0 && h.Entries[n-1] == text {
		return nil
	}
	h.Entries = append(h.Entries, text)
	if len(h.Entries) > HistoryMaxEntries {
		h.Entries = append([]string(nil), h.Entries[len(h.Entries)-HistoryMaxEntries:]...)
	}
	if h.Path == "" {
		return nil
	}
	path, all := h.Path, append([]string(nil), h.Entries...)
	return func() tea.Msg { return HistorySavedMsg{Err: appendHistory(path, text, all)} }
}

// Loaded merges the entries read from the file before those added since.
func (h *PromptHistory) Loaded(entries []string) {
	merged := append(append([]string(nil), entries...), h.Entries...)
	if len(merged) > HistoryMaxEntries {
		merged = merged[len(merged)-HistoryMaxEntries:]
	}
	h.Entries = merged
}

// LoadHistory reads the history file (a missing file is an empty history).
func LoadHistory(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		entries, err := readHistory(path)
		return HistoryLoadedMsg{Entries: entries, Err: err}
	}
}

// historyTailBytes bounds what is read of the history file: its tail
// holds the newest entries (a file grown to 1 GB is not read whole).
const historyTailBytes = 4 << 20

func readHistory(path string) ([]string, error) {
	b, err := safefile.ReadTail(path, historyTailBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("prompt history: %w", err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 4*HistoryMaxEntryBytes)
	for sc.Scan() {
		var l historyLine
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Text != "" {
			out = append(out, redact.String(l.Text))
		}
	}
	if len(out) > HistoryMaxEntries {
		out = out[len(out)-HistoryMaxEntries:]
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("prompt history %s: %w", path, err)
	}
	return out, nil
}

// appendHistory appends text to the file, or rewrites the file with the
// newest entries (all) when it has grown past twice their size (the size
// alone decides: nothing reads the file to count its lines).
func appendHistory(path, text string, all []string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("prompt history: %w", err)
	}
	if st, err := os.Lstat(path); err == nil && st.Size() > 2*historyBytes(all)+64<<10 {
		return rewriteHistory(path, all)
	}
	f, err := safefile.OpenAppend(path, 0o600) // never through a link placed there
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

// historyBytes is the size of entries as history lines.
func historyBytes(entries []string) int64 {
	var n int64
	for _, e := range entries {
		n += int64(len(e)) + 12 // {"text":""}\n
	}
	return n
}

// rewriteHistory replaces the file with entries (atomically, a new file
// renamed over it: a link placed at the path is replaced, not followed).
func rewriteHistory(path string, entries []string) error {
	var b strings.Builder
	for _, e := range entries {
		j, _ := json.Marshal(historyLine{Text: e})
		b.Write(j)
		b.WriteByte('\n')
	}
	if err := safefile.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("prompt history: %w", err)
	}
	return nil
}
