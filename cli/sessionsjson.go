package cli

import (
	"encoding/json"
	"io"

	"github.com/ahptui/ahptui/ahpwire"
)

// sessionJSON is one line of `ahptui sessions --json`: the host's session
// summary with its status bitset spelt out — "status" is the activity as a
// word (idle, running, needs-input, error), "read" and "archived" the flag
// bits, and "statusBits" the raw bitset for scripts that want it.
func sessionJSON(s ahpwire.SessionSummary) (json.RawMessage, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err //nolint:wrapcheck // the summary is ours; this cannot fail
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err //nolint:wrapcheck // as above
	}
	put := func(k string, v any) {
		b, _ := json.Marshal(v)
		obj[k] = b
	}
	put("status", s.Status.ActivityName())
	put("read", s.Status.Has(ahpwire.StatusIsRead))
	put("archived", s.Status.Has(ahpwire.StatusIsArchived))
	put("statusBits", uint32(s.Status))
	return json.Marshal(obj) //nolint:wrapcheck // as above
}

// writeSessionsJSON writes one JSON object per line.
func writeSessionsJSON(w io.Writer, all []ahpwire.SessionSummary) {
	for _, s := range all {
		if b, err := sessionJSON(s); err == nil {
			_, _ = w.Write(append(b, '\n'))
		}
	}
}
