package cli

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestExecAndExportLongReply: a reply longer than the host keeps inline
// (its tail streamed as contentRef pages) is printed whole by exec, plain
// and JSON, and by export: both stopped at the inline head (256 KiB).
func TestExecAndExportLongReply(t *testing.T) {
	u, _ := startTestHost(t)
	want := strings.ReplaceAll(demo.StreamReply(600<<10), "\t", "    ") // sanitised as exec and export print it
	code, out, errs := runIn(t, "", "exec", u, "/demo stream 600k")
	if code != execCompleted {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if out != want+"\n" {
		t.Fatalf("exec printed %d bytes, want the reply's %d (+ a newline); ends %q", len(out), len(want), out[max(0, len(out)-80):])
	}
	id := regexp.MustCompile(`ahptui: session (\S+)`).FindStringSubmatch(errs)[1]
	code, out, errs = runIn(t, "", "export", u, id)
	if code != exitOK || !strings.Contains(out, "## Agent\n\n"+want+"\n") {
		t.Fatalf("export: %d, %d bytes, stderr %q; ends %q", code, len(out), errs, out[max(0, len(out)-80):])
	}
	code, out, errs = runIn(t, "", "exec", "--json", u, "/demo stream 300k")
	if code != execCompleted {
		t.Fatalf("exec --json: exit %d, stderr %q", code, errs)
	}
	var text strings.Builder
	ended := false
	for _, e := range ndjson(t, out) {
		switch e["type"] {
		case "text":
			if ended {
				t.Fatal("text after turn_end")
			}
			text.WriteString(e["text"].(string))
		case "turn_end":
			ended = true
		}
	}
	if got, want := text.String(), demo.StreamReply(300<<10); got != want { // JSON carries the text as sent
		t.Fatalf("exec --json text: %d bytes, want %d", len(got), len(want))
	}
}

// TestInlinePages: a text page continues the markdown part before it, or
// starts one; an attachment and a page that cannot be read become notes;
// the turns given are not modified.
func TestInlinePages(t *testing.T) {
	ref := func(uri, ct string) ahpwire.ResponsePart {
		n := int64(3)
		return ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ahpwire.ContentRef{URI: uri, ContentType: ct, SizeHint: &n}}
	}
	turns := []ahpwire.Turn{{ID: "t1", ResponseParts: []ahpwire.ResponsePart{
		ahpwire.MarkdownPart("m1", "head "),
		ref("p:/1", "text/markdown"),
		ref("p:/2", "text/markdown"),
		{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{ToolCallID: "c1", DisplayName: "bash"}},
		ref("p:/3", ""),
		ref("p:/gone", "text/markdown"),
		ref("p:/img", "image/png"),
	}}}
	read := func(uri string) (string, error) {
		if uri == "p:/gone" {
			return "", errors.New("the host no longer has this content")
		}
		return "<" + uri + ">", nil
	}
	got := inlinePages(turns, read)
	ps := got[0].ResponseParts
	if len(ps) != 3 || ps[0].Content != "head <p:/1><p:/2>" || ps[1].Kind != ahpwire.PartToolCall {
		t.Fatalf("parts: %+v", ps)
	}
	if !strings.HasPrefix(ps[2].Content, "<p:/3>") || !strings.Contains(ps[2].Content, "could not be read: the host no longer has this content") ||
		!strings.Contains(ps[2].Content, "attachment: p:/img (image/png, 3 bytes)") {
		t.Fatalf("after the tool call: %q", ps[2].Content)
	}
	if len(turns[0].ResponseParts) != 7 || turns[0].ResponseParts[0].Content != "head " {
		t.Fatalf("the turns given were modified: %+v", turns[0].ResponseParts)
	}
}

// TestEventWriterHoldsForPages: what exec writes after a page waits until
// the page is read, in order; pump without waiting leaves an unread page
// and what follows it; end waits for it.
func TestEventWriterHoldsForPages(t *testing.T) {
	var out bytes.Buffer
	e := newEventWriter(&out, false)
	e.text("m1", "head ")
	release := make(chan struct{})
	e.page("m1", &ahpwire.ContentRef{URI: "p:/1", ContentType: "text/markdown"}, func() (string, error) {
		<-release
		return "page one ", nil
	})
	e.page("m1", &ahpwire.ContentRef{URI: "p:/2", ContentType: "text/markdown"}, func() (string, error) { return "page two", nil })
	e.text("m2", "after")
	e.pump(false)
	if out.String() != "head " {
		t.Fatalf("written before the first page was read: %q", out.String())
	}
	close(release)
	e.end("complete", 1, nil, "")
	if want := "head page one page two\n\nafter\n"; out.String() != want {
		t.Fatalf("written %q, want %q", out.String(), want)
	}
}
