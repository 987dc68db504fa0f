package tui

import "github.com/ahptui/ahptui/render"

// viewOptsBase are the render options of the transcript: the global views,
// expanded blocks, and the live terminals and fetched contents.
func (m *chatModel) viewOptsBase() render.ViewOpts {
	v := render.ViewOpts{Thinking: m.thinking.mode(), Expanded: m.expanded, Now: m.c.now(), Hints: m.transcriptHints()}
	m.c.ext.viewOpts(&v)
	return v
}
