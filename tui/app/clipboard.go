package app

import (
	"fmt"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/uikit"
)

// ClipboardMax caps what one copy puts on the clipboard. The copy travels
// as an OSC 52 sequence (base64, a third larger), and terminals and tmux
// drop sequences past roughly 100 KB–1 MB without a word, so a bigger
// copy would report success and leave the clipboard unchanged. A longer
// text is cut at the cap, and the notice says so and offers the export.
const ClipboardMax = 256 << 10

// CopyCmd copies text to the clipboard and reports it: what names the
// copy ("the message as markdown"). A text over clipboardMax is cut, and
// the notice says how much was copied and that e exports the whole chat.
func CopyCmd(text, what string, exportKey string) tea.Cmd {
	if len(text) <= ClipboardMax {
		return tea.Batch(tea.SetClipboard(text), uikit.Notice(fmt.Sprintf("copied %s (%d bytes)", what, len(text)), false))
	}
	cut := ClipboardMax
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	msg := fmt.Sprintf("copied the first %d KB of %s (%d KB: terminals drop bigger copies) — %s exports it to a file",
		cut>>10, what, len(text)>>10, exportKey)
	return tea.Batch(tea.SetClipboard(text[:cut]), uikit.Notice(msg, false))
}
