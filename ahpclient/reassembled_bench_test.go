package ahpclient

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/segment"
)

// reassembledBenchMessage returns an 8 MiB message: "text" is an action
// notification carrying one big tool output; "structured" a snapshot-like
// response of many small objects.
func reassembledBenchMessage(kind string) []byte {
	const size = 8 << 20
	var buf bytes.Buffer
	var line, tail string
	if kind == "text" {
		buf.WriteString(`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-chat:/3f1c","serverSeq":421,"action":{"type":"chat/toolCallComplete","toolCallId":"t1","result":{"content":"`)
		line, tail = `2026-11-22T01:02:03.456Z INFO  [build] compiling \"github.com/ahptui/ahptui/segment\"\t(12 files) — ok ✓\n`, `"}}}}`
	} else {
		buf.WriteString(`{"jsonrpc":"2.0","id":17,"result":{"type":"snapshot","snapshots":[`)
		line, tail = `{"id":"m-000123","role":"assistant","kind":"markdown","text":"Here is the \"plan\": step one…","ts":1763773323000,"seq":42,"tags":["a","b"],"meta":{"ok":true,"n":null}},`, `{}]}}`
	}
	for buf.Len() < size-len(line)-len(tail) {
		buf.WriteString(line)
	}
	buf.WriteString(strings.Repeat(" ", size-buf.Len()-len(tail)))
	buf.WriteString(tail)
	return buf.Bytes()
}

// BenchmarkReassembledMessage measures the client's whole handling of a
// reassembled 8 MiB message up to a decoded envelope or ahpwire.Message:
// "checked" is the path before issue 12 (Feed with its JSON-RPC check, then
// the read loop's decode: the action fast path or json.Unmarshal);
// "once" is the current path (FeedUnchecked, then parseReassembled, which
// validates while parsing). x-stdbase64 = one base64.StdEncoding.Decode of
// the segments' data ÷ the whole path (fastest of b.N interleaved runs).
func BenchmarkReassembledMessage(b *testing.B) {
	for _, kind := range []string{"text", "structured"} {
		msg := reassembledBenchMessage(kind)
		recv := segment.RelayCapability()
		frames, err := segment.NewSplitter(nil).Split(msg, &recv, 0)
		if err != nil {
			b.Fatal(err)
		}
		var enc []byte
		for _, f := range frames {
			var s struct {
				Params struct{ Data string } `json:"params"`
			}
			_ = json.Unmarshal(f, &s)
			enc = append(enc, s.Params.Data...)
		}
		dst := make([]byte, base64.StdEncoding.DecodedLen(len(enc)))
		for _, mode := range []string{"checked", "once"} {
			b.Run(kind+"/"+mode, func(b *testing.B) {
				r := segment.NewReassembler(recv.Limits(), nil)
				run := func() {
					var out []byte
					for _, f := range frames {
						var m []byte
						var err error
						if mode == "checked" {
							m, err = r.Feed(f)
						} else {
							m, _, err = r.FeedUnchecked(f)
						}
						if err != nil {
							b.Fatal(err)
						}
						out = m
					}
					if mode == "checked" {
						if _, ok := decodeActionFast(out); !ok {
							var m ahpwire.Message
							if json.Unmarshal(out, &m) != nil || m.Result == nil {
								b.Fatal("undecodable")
							}
						}
						return
					}
					p, m, verr, derr := parseReassembled(out)
					if verr != nil || derr != nil || (p == nil && m.Result == nil) {
						b.Fatal("undecodable", verr, derr)
					}
				}
				b.SetBytes(int64(len(msg)))
				testkit.BestVsStdBase64(b, enc, dst, run)
			})
		}
	}
}
