package segment_test

import (
	"fmt"

	"github.com/ahptui/ahptui/segment"
)

// The sender splits toward the receiver's advertised capability; the
// receiver feeds every text frame to its Reassembler.
func Example() {
	recv := segment.ChunkingCapability{MaxIncomingFrameBytes: 200, MaxIncomingMessageBytes: 1 << 20}
	msg := []byte(`{"jsonrpc":"2.0","method":"action","params":{"text":"` +
		"a long enough text to need three or four frames of two hundred bytes each, which is tiny, " +
		"but the relay profile uses the same code with 900000-byte frames" + `"}}`)

	sp := segment.NewSplitter(nil)
	g, err := sp.SplitGroup(msg, &recv, 0)
	if err != nil {
		fmt.Println("split:", err)
		return
	}
	defer sp.Done(g.ID)

	r := segment.NewReassembler(recv.Limits(), nil)
	for _, frame := range g.Frames {
		out, err := r.Feed(frame)
		if err != nil {
			fmt.Println("close", segment.CloseCode, segment.CloseReason, err)
			return
		}
		if out != nil {
			fmt.Println(len(g.Frames) > 1, string(out) == string(msg))
		}
	}
	// Output: true true
}
