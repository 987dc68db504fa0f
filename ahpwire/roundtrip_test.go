package ahpwire

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// roundTrip decodes input into the Go type named by the fixture and
// re-encodes it. ok is false for wire types this package does not model.
func roundTrip(typ string, input []byte) (out []byte, ok bool, err error) {
	enc := func(v any) ([]byte, bool, error) {
		if err := json.Unmarshal(input, v); err != nil {
			return nil, true, err
		}
		b, err := json.Marshal(v)
		return b, true, err
	}
	switch typ {
	case "ActionEnvelope":
		return enc(&ActionEnvelope{})
	case "StateAction":
		a, err := DecodeAction(input)
		if err != nil {
			return nil, true, err
		}
		b, err := MarshalAction(a)
		return b, true, err
	case "SessionStatus":
		return enc(new(SessionStatus))
	case "StringOrMarkdown":
		return enc(&StringOrMarkdown{})
	case "JsonRpcMessage":
		return enc(&Message{})
	case "SessionSummary":
		return enc(&SessionSummary{})
	case "SessionAddedParams":
		return enc(&SessionAddedParams{})
	case "PartialSessionSummary":
		return enc(&PartialSessionSummary{})
	case "ChatInputQuestion":
		return enc(&ChatInputQuestion{})
	case "ReconnectParams":
		return enc(&ReconnectParams{})
	case "ReconnectResult":
		return enc(&ReconnectResult{})
	case "InitializeResult":
		return enc(&InitializeResult{})
	case "AuthRequiredParams":
		return enc(&AuthRequiredParams{})
	case "Snapshot":
		return enc(&Snapshot{})
	case "ChangesetOperationTarget":
		return enc(&ChangesetOperationTarget{})
	case "ChatSource":
		return enc(&ChatSource{})
	case "Customization":
		// Customizations are carried as raw JSON (SessionState.customizations).
		return enc(&json.RawMessage{})
	}
	return nil, false, nil
}

// notModelled lists fixture wire types this package deliberately does not
// model, with the reason. Any other unknown type fails the test.
var notModelled = map[string]string{}

func TestRoundTripFixtures(t *testing.T) {
	ran := 0
	for _, fx := range ahpfixtures.RoundTrips(t) {
		t.Run(fx.File, func(t *testing.T) {
			out, ok, err := roundTrip(fx.Type, fx.Input)
			if !ok {
				reason, listed := notModelled[fx.Type]
				if !listed {
					t.Fatalf("wire type %q is neither modelled nor listed in notModelled", fx.Type)
				}
				t.Logf("not applicable: %s: %s", fx.Type, reason)
				return
			}
			if err != nil {
				t.Fatalf("round-trip %s: %v", fx.Type, err)
			}
			if len(fx.AcceptableOutputs) == 0 {
				t.Fatal("fixture has no acceptableOutputs")
			}
			got, want := ahpfixtures.JSON(t, out), ahpfixtures.JSON(t, fx.AcceptableOutputs[0])
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round-trip mismatch\n got: %s\nwant: %s", out, fx.AcceptableOutputs[0])
			}
			ran++
		})
	}
	if ran == 0 {
		t.Fatal("no round-trip fixture ran")
	}
}
