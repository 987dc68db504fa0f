package ahpfixtures

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// Decode decodes one JSON value into generic Go values (maps, slices,
// strings, bools, nil) with numbers kept exact as json.Number, so two
// values compare with reflect.DeepEqual independent of key order and
// number formatting.
func Decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("ahpfixtures: decode %s: %w", b, err)
	}
	return v, nil
}

// StripNulls deletes object members whose value is null, at every depth
// (the fixtures write absent optional fields either way). It changes v in
// place and returns it.
func StripNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = StripNulls(e)
		}
	case []any:
		for i := range x {
			x[i] = StripNulls(x[i])
		}
	}
	return v
}

// JSON is Decode for tests: it stops tb when b is not JSON.
func JSON(tb testing.TB, b []byte) any {
	tb.Helper()
	v, err := Decode(b)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// Normalized is JSON followed by StripNulls: the form the reducer fixture
// runners compare.
func Normalized(tb testing.TB, b []byte) any {
	tb.Helper()
	return StripNulls(JSON(tb, b))
}
