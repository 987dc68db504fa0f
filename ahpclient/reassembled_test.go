package ahpclient

import (
	"encoding/base64"
	"testing"
	"time"

	"github.com/ahptui/ahptui/segment"
)

// TestReassembledInvalidMessageCloses4400: the client leaves the JSON-RPC
// check of a reassembled message to its parse (FeedUnchecked); a message
// that is not valid JSON-RPC still closes the connection with 4400, whether
// it looks like an action frame or not.
func TestReassembledInvalidMessageCloses4400(t *testing.T) {
	for name, msg := range map[string]string{
		"action with invalid JSON": `{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-chat:/c","serverSeq":1,"action":{"a":[1,]}}}`,
		"duplicate method":         `{"jsonrpc":"2.0","method":"x","method":"action","params":{"channel":"ahp-chat:/c","serverSeq":1,"action":{}}}`,
		"nested segment":           `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"h","index":0,"total":1,"data":""}}`,
		"response with both":       `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			frame := []byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":"` +
				base64.StdEncoding.EncodeToString([]byte(msg)) + `"}}`)
			f := newFakeHostSending(t, frame)
			o := testOptions(t, f.url())
			o.SessionsLimit = -1
			startClient(t, o)
			select {
			case st := <-f.closes:
				if st != segment.CloseCode {
					t.Fatalf("client closed with %d, want %d", st, segment.CloseCode)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("client did not close the connection")
			}
		})
	}
}
