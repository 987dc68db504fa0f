package acp

import (
	"strings"
	"unicode/utf16"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// promptBlocks builds session/prompt's content: the text, then each
// attachment as a resource link (an embedded resource when the attachment
// carries its text and the agent accepts embedded context; an image when it
// carries image data and the agent accepts images).
func (b *Bridge) promptBlocks(caps sdk.PromptCapabilities, t agent.Turn) []sdk.ContentBlock {
	blocks := []sdk.ContentBlock{sdk.TextBlock(t.Text)}
	for _, a := range t.Attachments {
		name := a.Label
		if name == "" {
			name = a.URI
		}
		switch {
		case a.Data != "" && strings.HasPrefix(a.ContentType, "image/") && caps.Image:
			blocks = append(blocks, sdk.ImageBlock(a.Data, a.ContentType))
		case a.Data != "" && caps.EmbeddedContext && !strings.HasPrefix(a.ContentType, "image/"):
			uri := a.URI
			if uri == "" {
				uri = "attachment:" + name
			}
			blocks = append(blocks, sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: uri, Text: a.Data}}))
		case a.URI != "":
			blocks = append(blocks, sdk.ResourceLinkBlock(name, a.URI))
		case a.ModelRepresentation != "":
			blocks = append(blocks, sdk.TextBlock(a.ModelRepresentation))
		}
	}
	return blocks
}

// CompleteSession offers the agent's slash commands after "/" at the start
// of the message.
func (b *Bridge) CompleteSession(sessionURI, text string, offset int) []ahpwire.CompletionItem {
	return b.CompleteSessionIn(sessionURI, "", text, offset)
}

// CompleteSessionIn offers the agent's slash commands after "/" at the
// start of the message, and the files of the session's directory (dir
// until the session's first turn) after "@" (mention.go).
func (b *Bridge) CompleteSessionIn(sessionURI, dir, text string, offset int) []ahpwire.CompletionItem {
	if q, start, ok := mentionAt(text, offset); ok {
		s, err := b.sessionFor(sessionURI, dir)
		if err != nil {
			return nil
		}
		return s.mentionItems(q, start, offset)
	}
	b.mu.Lock()
	s := b.sessions[sessionURI]
	b.mu.Unlock()
	if s == nil || !strings.HasPrefix(text, "/") {
		return nil
	}
	u := utf16.Encode([]rune(text))
	if offset < 1 || offset > len(u) {
		return nil
	}
	word := string(utf16.Decode(u[1:offset]))
	if strings.ContainsAny(word, " \n\t") {
		return nil
	}
	s.mu.Lock()
	cmds := append([]sdk.AvailableCommand(nil), s.commands...)
	s.mu.Unlock()
	var out []ahpwire.CompletionItem
	for _, c := range cmds {
		if !strings.HasPrefix(c.Name, word) {
			continue
		}
		start, end := 0, offset
		out = append(out, ahpwire.CompletionItem{
			InsertText: "/" + c.Name + " ", RangeStart: &start, RangeEnd: &end,
			Attachment: ahpwire.MessageAttachment{Type: "simple", Label: "/" + c.Name, ModelRepresentation: c.Description},
		})
	}
	return out
}
