package ahpwire

import "testing"

// TestOnceOption: the one-call option of a kind wins over a lasting one
// listed first (Claude Code's adapter lists "Always Allow" first).
func TestOnceOption(t *testing.T) {
	claude := []ConfirmationOption{
		{ID: "allow_always", Label: "Always Allow", Kind: "approve"},
		{ID: "allow", Label: "Allow", Kind: "approve"},
		{ID: "reject", Label: "Reject", Kind: "deny"},
	}
	if o := OnceOption(claude, "approve"); o == nil || o.ID != "allow" {
		t.Fatalf("approve: %+v", o)
	}
	if o := OnceOption(claude, "deny"); o == nil || o.ID != "reject" {
		t.Fatalf("deny: %+v", o)
	}
	onlyLasting := []ConfirmationOption{{ID: "x", Label: "Allow for this session", Kind: "approve"}}
	if o := OnceOption(onlyLasting, "approve"); o == nil || o.ID != "x" {
		t.Fatalf("fallback: %+v", o)
	}
	if o := OnceOption(onlyLasting, "deny"); o != nil {
		t.Fatalf("no deny option: %+v", o)
	}
	// The result is a copy: changing it leaves the options alone.
	o := OnceOption(claude, "approve")
	o.Label = "changed"
	if claude[1].Label != "Allow" {
		t.Fatal("OnceOption returned a pointer into the slice")
	}
}
