package demo

// scriptCode is "/demo code": a reply with several fenced code blocks (Go
// and a Makefile indented with tabs, a shell line), to try copying one of
// them (/copy lists them; Y copies the one under the cursor) with its
// tabs kept. It sits after scriptStream so the iota block stays as it is.
const scriptCode = scriptStream + 1

// codeText is the answer to "/demo code". The Go function and the
// Makefile recipe are indented with tabs (make needs them).
func codeText() string {
	return "Three code blocks to copy (`/copy` picks one; `Y` in the transcript copies the one under the cursor):\n\n" +
		"A Go function, indented with tabs:\n\n" +
		fenced("go", "func sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}") +
		"\nA Makefile — its recipe lines must start with a tab:\n\n" +
		fenced("make", "test:\n\tgo test ./...\n\nlint:\n\tgofmt -l .") +
		"\nAnd a shell line:\n\n" +
		fenced("sh", "make test lint") +
		"\nPasted, each keeps its tabs byte for byte.\n"
}
