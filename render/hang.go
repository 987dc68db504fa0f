package render

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// listItemStart matches the start of a list item as glamour draws it, after
// stripping styles: indent, marker (bullet, number, task box), space.
var listItemStart = regexp.MustCompile(`^( *)(?:[•◦▪‣*+-]|\d{1,9}[.)]|\[[ xX✓]\]|[☐☑✓]) +`)

// hangListItems gives wrapped list items a hanging indent. glamour wraps
// an item's text back to the item's own indent, so the continuation lines
// sit under the bullet; here each wrapped item is re-wrapped to width with
// its continuation lines under the item's text. Lines that are not list
// items pass through.
func hangListItems(lines []string, width int) []string {
	var out []string
	for i := 0; i < len(lines); {
		plain := ansi.Strip(lines[i])
		m := listItemStart.FindStringSubmatch(plain)
		if m == nil {
			out = append(out, lines[i])
			i++
			continue
		}
		indent, hang := len(m[1]), ansi.StringWidth(m[0])
		// The item's continuation lines: non-blank, at the item's indent,
		// not starting an item of their own.
		j := i + 1
		for j < len(lines) {
			p := ansi.Strip(lines[j])
			if strings.TrimSpace(p) == "" || leadingSpaces(p) != indent || listItemStart.MatchString(p) {
				break
			}
			j++
		}
		if j == i+1 || hang >= width/2 {
			out = append(out, lines[i:j]...)
			i = j
			continue
		}
		text := ansi.Cut(lines[i], hang, ansi.StringWidth(lines[i]))
		for _, c := range lines[i+1 : j] {
			text += " " + ansi.TruncateLeft(c, indent, "")
		}
		prefix := ansi.Truncate(lines[i], hang, "")
		pad := strings.Repeat(" ", hang)
		for k, l := range wrapText(text, width-hang) {
			if k == 0 {
				out = append(out, prefix+l)
			} else {
				out = append(out, pad+l)
			}
		}
		i = j
	}
	return out
}

// leadingSpaces counts the spaces that start s.
func leadingSpaces(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
