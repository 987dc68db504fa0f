package render

import (
	"fmt"
	"strings"
)

// genMarkdown builds a deterministic mixed markdown answer of about n bytes:
// headings, prose with inline styles, bullet and ordered lists, Go and JSON
// fences, an unlabeled fence, tables and block quotes. Every section differs
// (its number appears in each block), so no block is a cache hit of another.
func genMarkdown(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Section %d: streaming notes\n\n", i)
		fmt.Fprintf(&b, "Paragraph %d explains **why** the renderer caches *completed* blocks and re-renders only the `open tail`. "+
			"See [the guide](https://example.com/guide/%d) for details; the cost of glamour is roughly five microseconds per input byte, "+
			"so a naive re-render of a long answer on every delta would take seconds.\n\n", i, i)
		fmt.Fprintf(&b, "- item one of list %d with some words\n- item two, which is a little longer and mentions `code`\n  - nested item %d\n- item three\n\n", i, i)
		fmt.Fprintf(&b, "1. first step %d\n2. second step\n3. third step with **bold** text\n\n", i)
		fmt.Fprintf(&b, "```go\n// handler%d handles a request.\nfunc handler%d(w http.ResponseWriter, r *http.Request) {\n\tif r.Method != http.MethodGet {\n\t\thttp.Error(w, \"method\", http.StatusMethodNotAllowed)\n\t\treturn\n\t}\n\tfmt.Fprintf(w, \"hello %%d\", %d)\n}\n```\n\n", i, i, i)
		fmt.Fprintf(&b, "```json\n{\n  \"id\": %d,\n  \"name\": \"section-%d\",\n  \"tags\": [\"a\", \"b\", \"c\"],\n  \"nested\": {\"ok\": true, \"count\": %d}\n}\n```\n\n", i, i, i*3)
		if i%3 == 0 {
			fmt.Fprintf(&b, "```\nplain output line %d\nanother line\n```\n\n", i)
		}
		fmt.Fprintf(&b, "| name | value | note |\n|------|-------|------|\n| alpha | %d | first |\n| beta | %d | second |\n| gamma | %d | third |\n\n", i, i+1, i+2)
		fmt.Fprintf(&b, "> Quote %d: measure, then optimise; the tail is the only part that changes.\n\n", i)
	}
	return b.String()
}
