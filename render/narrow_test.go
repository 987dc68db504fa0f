package render

import "testing"

// TestEveryNarrowWidth renders every golden case at every width from
// MinWidth to 40 (narrow terminals, split panes over SSH): no line may
// exceed the width and the usual invariants hold.
func TestEveryNarrowWidth(t *testing.T) {
	for _, c := range goldenCases() {
		for w := MinWidth; w <= 40; w++ {
			checkRenderedInvariants(t, renderCase(c, DarkStyles(), w), w)
			if t.Failed() {
				t.Fatalf("case %s at width %d", c.name, w)
			}
		}
	}
}
