package render

import (
	"strings"

	"charm.land/glamour/v2/ansi"
	glamstyles "charm.land/glamour/v2/styles"
	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// chromaFormatter is the chroma formatter for highlighted code. The
// truecolour formatter is deterministic; chroma's 256-colour formatter picks
// between equally close palette entries in map order, which would make the
// output (and golden files) vary between runs. Down-sampling for terminals
// without truecolour is left to the TUI's renderer.
const chromaFormatter = "terminal16m"

// Chroma gives every lexer rule a 250 ms regexp2 match timeout and treats a
// timed-out rule as not matching, so a spurious timeout mis-highlights a
// block (and the block cache keeps it). regexp2 before v1.12.0 restarted
// its timeout clock after a second of idleness from a stale time and then
// jumped it forward by the whole idle time: a match in flight at that jump
// "timed out". go.mod requires regexp2 v1.12.0 for that fix (found through
// TestStreamEqualsWhole failing under load).

// Chroma themes registered once, at package initialisation, from glamour's
// dark and light code palettes. Glamour itself registers a single global
// theme "charm" from whichever style renders first, so dark and light code
// colours would leak into each other; our own names keep them apart.
const (
	chromaDark  = "ahptui-dark"
	chromaLight = "ahptui-light"
)

func init() {
	registerChroma(chromaDark, glamstyles.DarkStyleConfig.CodeBlock.Chroma)
	registerChroma(chromaLight, glamstyles.LightStyleConfig.CodeBlock.Chroma)
}

func registerChroma(name string, c *ansi.Chroma) {
	if c == nil || chromastyles.Registry[name] != nil {
		return
	}
	chromastyles.Register(chroma.MustNewStyle(name, chroma.StyleEntries{
		chroma.Text:                chromaEntry(c.Text),
		chroma.Error:               chromaEntry(c.Error),
		chroma.Comment:             chromaEntry(c.Comment),
		chroma.CommentPreproc:      chromaEntry(c.CommentPreproc),
		chroma.Keyword:             chromaEntry(c.Keyword),
		chroma.KeywordReserved:     chromaEntry(c.KeywordReserved),
		chroma.KeywordNamespace:    chromaEntry(c.KeywordNamespace),
		chroma.KeywordType:         chromaEntry(c.KeywordType),
		chroma.Operator:            chromaEntry(c.Operator),
		chroma.Punctuation:         chromaEntry(c.Punctuation),
		chroma.Name:                chromaEntry(c.Name),
		chroma.NameBuiltin:         chromaEntry(c.NameBuiltin),
		chroma.NameTag:             chromaEntry(c.NameTag),
		chroma.NameAttribute:       chromaEntry(c.NameAttribute),
		chroma.NameClass:           chromaEntry(c.NameClass),
		chroma.NameConstant:        chromaEntry(c.NameConstant),
		chroma.NameDecorator:       chromaEntry(c.NameDecorator),
		chroma.NameException:       chromaEntry(c.NameException),
		chroma.NameFunction:        chromaEntry(c.NameFunction),
		chroma.NameOther:           chromaEntry(c.NameOther),
		chroma.Literal:             chromaEntry(c.Literal),
		chroma.LiteralNumber:       chromaEntry(c.LiteralNumber),
		chroma.LiteralDate:         chromaEntry(c.LiteralDate),
		chroma.LiteralString:       chromaEntry(c.LiteralString),
		chroma.LiteralStringEscape: chromaEntry(c.LiteralStringEscape),
		chroma.GenericDeleted:      chromaEntry(c.GenericDeleted),
		chroma.GenericEmph:         chromaEntry(c.GenericEmph),
		chroma.GenericInserted:     chromaEntry(c.GenericInserted),
		chroma.GenericStrong:       chromaEntry(c.GenericStrong),
		chroma.GenericSubheading:   chromaEntry(c.GenericSubheading),
		chroma.Background:          chromaEntry(c.Background),
	}))
}

// chromaEntry converts a glamour style primitive to a chroma style entry
// (the same mapping glamour uses).
func chromaEntry(p ansi.StylePrimitive) string {
	var parts []string
	if p.Color != nil {
		parts = append(parts, *p.Color)
	}
	if p.BackgroundColor != nil {
		parts = append(parts, "bg:"+*p.BackgroundColor)
	}
	if p.Italic != nil && *p.Italic {
		parts = append(parts, "italic")
	}
	if p.Bold != nil && *p.Bold {
		parts = append(parts, "bold")
	}
	if p.Underline != nil && *p.Underline {
		parts = append(parts, "underline")
	}
	return strings.Join(parts, " ")
}
