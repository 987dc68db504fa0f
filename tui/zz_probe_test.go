package tui

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
)

func writeHeap(name string) {
	runtime.GC()
	f, _ := os.Create(name)
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
}

func TestZZProbeHeap(t *testing.T) {
	runtime.MemProfileRate = 2048
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo big 32000000")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("big reply", func(m Model) bool {
		return m.chat.state.Current == nil && strings.Contains(viewText(m), "end of 32000000")
	})
	a := heapMB()
	writeHeap("/tmp/h1/all.prof")
	r.m.chat.tr = transcript{}
	r.m.c.renderer = nil
	b := heapMB()
	writeHeap("/tmp/h1/norender.prof")
	t.Logf("render %.1f MB", a-b)
	runtime.KeepAlive(r)
}
