package render
import ("testing";"slices";"fmt")
func TestZZDiag(t *testing.T) {
	doc := genMarkdown(benchDocBytes)
	times, _ := streamRun(doc)
	slices.SortFunc(times, func(a, b renderTime) int { return int(b.cpu - a.cpu) })
	for _, x := range times[:8] { fmt.Println(x.wall, x.cpu, x.end, fmt.Sprintf("%q", doc[max(0,x.end-60):x.end])) }
}
