package ahpfixtures

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"testing"
)

// Decode decodes one JSON value into generic Go values (maps, slices,
// strings, bools, nil) with every number as a json.Number in one exact
// canonical spelling (the reduced fraction of its value: 0, 0.0 and 0e5
// all read "0"; 1.50 and 15e-1 read "3/2"), so two values compare with
// reflect.DeepEqual by JSON value, independent of key order and of how a
// number was written.
func Decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("ahpfixtures: decode %s: %w", b, err)
	}
	return canonNumbers(v), nil
}

// canonNumbers rewrites every json.Number in v to its canonical value
// spelling (see Decode); v is changed in place and returned.
func canonNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok {
			return json.Number(r.RatString())
		}
	case map[string]any:
		for k, e := range x {
			x[k] = canonNumbers(e)
		}
	case []any:
		for i := range x {
			x[i] = canonNumbers(x[i])
		}
	}
	return v
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
