package segment

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestDefaults(t *testing.T) {
	d := DefaultCapability()
	if d.MaxIncomingFrameBytes != 16<<20 || d.MaxIncomingMessageBytes != 32<<20 || d.MaxIncomingGroups != 8 || d.GroupTimeoutMs != 30000 {
		t.Fatalf("DefaultCapability = %+v", d)
	}
	r := RelayCapability()
	if r.MaxIncomingFrameBytes != 900000 || r.MaxIncomingMessageBytes != 32<<20 {
		t.Fatalf("RelayCapability = %+v", r)
	}
	for _, c := range []ChunkingCapability{d, r} {
		if err := c.Validate(); err != nil {
			t.Fatalf("default %+v invalid: %v", c, err)
		}
	}
	if CodeMessageTooLarge != -32050 || CloseCode != 4400 || CloseReason != "invalid messageSegment" || Method != "ahp/messageSegment" {
		t.Fatal("protocol constants changed")
	}
}

func TestCapabilityJSON(t *testing.T) {
	b, err := json.Marshal(ChunkingCapability{MaxIncomingFrameBytes: 900000, MaxIncomingMessageBytes: 33554432})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"maxIncomingFrameBytes":900000,"maxIncomingMessageBytes":33554432}` {
		t.Fatalf("optional fields not omitted: %s", b)
	}
	var c ChunkingCapability
	in := `{"maxIncomingFrameBytes":900000,"maxIncomingMessageBytes":16777216,"maxIncomingGroups":4,"groupTimeoutMs":30000}`
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	if c != (ChunkingCapability{900000, 16777216, 4, 30000}) {
		t.Fatalf("decoded %+v", c)
	}
}

func TestValidate(t *testing.T) {
	bad := map[string]ChunkingCapability{
		"zero frame":          {MaxIncomingFrameBytes: 0, MaxIncomingMessageBytes: 10},
		"zero message":        {MaxIncomingFrameBytes: 10, MaxIncomingMessageBytes: 0},
		"message below frame": {MaxIncomingFrameBytes: 10, MaxIncomingMessageBytes: 9},
		"negative groups":     {MaxIncomingFrameBytes: 10, MaxIncomingMessageBytes: 10, MaxIncomingGroups: -1},
		"negative timeout":    {MaxIncomingFrameBytes: 10, MaxIncomingMessageBytes: 10, GroupTimeoutMs: -1},
	}
	for name, c := range bad {
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "chunking capability") {
			t.Errorf("%s: Validate = %v, want an error", name, err)
		}
	}
	ok := ChunkingCapability{MaxIncomingFrameBytes: 10, MaxIncomingMessageBytes: 10, MaxIncomingGroups: 1, GroupTimeoutMs: 1}
	if err := ok.Validate(); err != nil {
		t.Fatalf("equal limits rejected: %v", err)
	}
}

func TestLimitsDefaultsNeverUnbounded(t *testing.T) {
	l := ChunkingCapability{MaxIncomingFrameBytes: 900000, MaxIncomingMessageBytes: 1 << 20}.Limits()
	want := Limits{MaxFrameBytes: 900000, MaxMessageBytes: 1 << 20, MaxGroups: 8, GroupTimeout: 30 * time.Second}
	if l != want {
		t.Fatalf("Limits = %+v, want %+v", l, want)
	}
	if z := (ChunkingCapability{}).Limits(); z != DefaultLimits() {
		t.Fatalf("zero capability limits = %+v", z)
	}
	l = ChunkingCapability{MaxIncomingFrameBytes: 1, MaxIncomingMessageBytes: 2, MaxIncomingGroups: 3, GroupTimeoutMs: 40}.Limits()
	if l != (Limits{MaxFrameBytes: 1, MaxMessageBytes: 2, MaxGroups: 3, GroupTimeout: 40 * time.Millisecond}) {
		t.Fatalf("explicit limits = %+v", l)
	}
	r := NewReassembler(Limits{}, nil)
	if r.Limits() != DefaultLimits() {
		t.Fatalf("zero Limits not defaulted: %+v", r.Limits())
	}
}
