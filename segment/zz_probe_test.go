package segment

import (
	"time"
	"bytes"
	"encoding/base64"
	"testing"
	"unicode/utf8"
)

func BenchmarkProbe(b *testing.B) {
	msg := benchMessage(b, "text")
	enc := []byte(base64.StdEncoding.EncodeToString(msg))
	dst := make([]byte, len(msg)+8)
	b.Run("stddecode", func(b *testing.B) {
		for b.Loop() {
			base64.StdEncoding.Decode(dst, enc)
		}
	})
	b.Run("fastdecode", func(b *testing.B) {
		for b.Loop() {
			b64Decode(dst, enc)
		}
	})
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			checkMessage(msg)
		}
	})
	b.Run("utf8", func(b *testing.B) {
		for b.Loop() {
			utf8.Valid(msg)
		}
	})
	b.Run("alloc", func(b *testing.B) {
		for b.Loop() {
			x := make([]byte, 0, len(msg)+3)
			_ = append(x, 1)
		}
	})
	smsg := benchMessage(b, "structured")
	b.Run("checkstructured", func(b *testing.B) {
		for b.Loop() {
			checkMessage(smsg)
		}
	})
}

func BenchmarkProbe2(b *testing.B) {
	msg := benchMessage(b, "text")
	for _, pat := range []string{"messageSegment", `\u`, `\u00`} {
		b.Run(pat, func(b *testing.B) {
			for b.Loop() {
				bytes.Contains(msg, []byte(pat))
			}
		})
	}
	b.Run("alloc44", func(b *testing.B) {
		for b.Loop() {
			x := make([]byte, 0, 44<<20)
			_ = append(x, 1)
		}
	})
}

func TestProbeDecode(t *testing.T) {
	msg := benchMessage(t, "text")
	enc := []byte(base64.StdEncoding.EncodeToString(msg))
	dst := make([]byte, len(msg)+8)
	bs, bf, bc, bu := time.Hour, time.Hour, time.Hour, time.Hour
	for range 15 {
		s := time.Now()
		base64.StdEncoding.Decode(dst, enc)
		bs = min(bs, time.Since(s))
		s = time.Now()
		b64Decode(dst, enc)
		bf = min(bf, time.Since(s))
		s = time.Now()
		checkMessage(msg)
		bc = min(bc, time.Since(s))
		s = time.Now()
		utf8.Valid(msg)
		bu = min(bu, time.Since(s))
	}
	t.Logf("std %v fast %v check %v utf8 %v", bs, bf, bc, bu)
}
