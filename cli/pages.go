package cli

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

// A long reply reaches clients as an inline head and then contentRef parts,
// one per page of the rest, whose text is read with resourceRead (issue
// 31). exec prints each page where it belongs in the reply and export
// puts the pages back into the text, so that neither stops at the head.

// pageReaders is how many pages exec reads at once.
const pageReaders = 4

// readTextRef reads a page's text; content that is not valid UTF-8 is an
// error (its bytes are not printed).
func readTextRef(ctx context.Context, h *headless, uri string) (string, error) {
	res, err := h.c.ResourceRead(ctx, uri, "")
	if err != nil {
		return "", err //nolint:wrapcheck // ahpclient's error names the resource
	}
	if !utf8.Valid(res.Data) {
		return "", fmt.Errorf("%s: not UTF-8 text", uri)
	}
	return string(res.Data), nil
}

// refNote is the line that stands for a reference exec or export does not
// print: an attachment, or a page that could not be read.
func refNote(ref *ahpwire.ContentRef, err error) string {
	if err != nil {
		return "\n\n> (a part of this reply could not be read: " + sanitizeLine(err.Error()) + ")\n\n"
	}
	size := ""
	if ref.SizeHint != nil {
		size = fmt.Sprintf(", %d bytes", *ref.SizeHint)
	}
	return "\n\n> (attachment: " + sanitizeLine(ref.URI) + " (" + sanitizeLine(ref.ContentType) + size + "))\n\n"
}

// inlinePages returns turns with their contentRef parts read: a text page
// continues the markdown part before it (pages are cut from one text, so
// joining them gives it back exactly), else it starts a markdown part of
// its own; an attachment or a page that cannot be read becomes a note in
// the text. read fetches one page. turns is not modified.
func inlinePages(turns []ahpwire.Turn, read func(uri string) (string, error)) []ahpwire.Turn {
	out := make([]ahpwire.Turn, len(turns))
	for i, t := range turns {
		out[i] = t
		has := false
		for _, p := range t.ResponseParts {
			has = has || (p.Kind == ahpwire.PartContentRef && p.Ref != nil)
		}
		if !has {
			continue
		}
		parts := make([]ahpwire.ResponsePart, 0, len(t.ResponseParts))
		for _, p := range t.ResponseParts {
			if p.Kind != ahpwire.PartContentRef || p.Ref == nil {
				parts = append(parts, p)
				continue
			}
			var text string
			if render.Fetchable(p.Ref.ContentType) {
				var err error
				if text, err = read(p.Ref.URI); err != nil {
					text = refNote(p.Ref, err)
				}
			} else {
				text = refNote(p.Ref, nil)
			}
			if n := len(parts); n > 0 && parts[n-1].Kind == ahpwire.PartMarkdown {
				parts[n-1].Content += text
				continue
			}
			parts = append(parts, ahpwire.ResponsePart{Kind: ahpwire.PartMarkdown, Content: text})
		}
		out[i].ResponseParts = parts
	}
	return out
}

// pageSlot is a page exec is reading, held in its place in the output.
type pageSlot struct {
	done   chan struct{}
	partID string
	text   string
}

// page prints the text behind ref as part partID's continuation, where
// it stands in the output: what is written after it waits until it has
// been read (by one of pageReaders goroutines; the caller goes on
// reading events meanwhile, so the client's event queue never fills and
// stops the page's answer). read fetches the page. An attachment is
// named, not read.
func (e *eventWriter) page(partID string, ref *ahpwire.ContentRef, read func() (string, error)) {
	if !render.Fetchable(ref.ContentType) {
		e.do(func() {
			e.event("content_ref", "partId", partID, "uri", ref.URI, "contentType", ref.ContentType)
			e.note("the reply attaches %s (%s)", ref.URI, ref.ContentType)
		})
		return
	}
	if e.readers == nil {
		e.readers = make(chan struct{}, pageReaders)
	}
	s := &pageSlot{done: make(chan struct{}), partID: partID}
	e.held = append(e.held, held{page: s})
	go func() {
		e.readers <- struct{}{}
		defer func() { <-e.readers }()
		text, err := read()
		if err != nil {
			text = refNote(ref, err)
		}
		s.text = text
		close(s.done)
	}()
}

// held is output waiting for a page read before it: a write, or the page.
type held struct {
	run  func()
	page *pageSlot
}

// do writes now, or after the pages being read when there are some.
func (e *eventWriter) do(write func()) {
	if len(e.held) > 0 {
		e.held = append(e.held, held{run: write})
		return
	}
	write()
}

// pump writes what no longer waits for a page; with wait, it waits for
// every page and writes everything.
func (e *eventWriter) pump(wait bool) {
	for len(e.held) > 0 {
		h := e.held[0]
		if h.page != nil {
			if !wait {
				select {
				case <-h.page.done:
				default:
					return
				}
			}
			<-h.page.done
		}
		e.held[0] = held{}
		e.held = e.held[1:]
		if h.page != nil {
			e.writeText(h.page.partID, h.page.text)
		} else {
			h.run()
		}
	}
}
