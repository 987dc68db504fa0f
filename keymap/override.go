package keymap

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Override returns km with the bindings named in overrides rebound:
// "context.action" (case-insensitive field names of KeyMap and its
// context, e.g. "global.quit", "composer.send") → keys. The help text
// shows the new keys. It fails on an unknown name, an empty key list, or
// a key that then clashes with another binding of the same context.
func Override(km KeyMap, overrides map[string][]string) (KeyMap, error) {
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	root := reflect.ValueOf(&km).Elem()
	for _, name := range names {
		keys := overrides[name]
		ctx, action, ok := strings.Cut(name, ".")
		if !ok || len(keys) == 0 {
			return km, fmt.Errorf("key override %q: want context.action = key(s)", name)
		}
		cv := fieldFold(root, ctx)
		if !cv.IsValid() || cv.Kind() != reflect.Struct {
			return km, fmt.Errorf("key override %q: no context %q (contexts: %s)", name, ctx, fieldNames(root))
		}
		bv := fieldFold(cv, action)
		b, isBinding := bindingAt(bv)
		if !isBinding {
			return km, fmt.Errorf("key override %q: no action %q in %s (actions: %s)", name, action, ctx, fieldNames(cv))
		}
		b.SetKeys(keys...)
		b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
		bv.Set(reflect.ValueOf(b))
	}
	base := Default().Contexts()
	for i, c := range km.Contexts() {
		before := Conflicts(base[i])
		for k, descs := range Conflicts(c) {
			if _, had := before[k]; !had {
				return km, fmt.Errorf("key overrides: %q is bound twice in %s (%s)", k, c.Name, strings.Join(descs, ", "))
			}
		}
	}
	return km, nil
}

// fieldFold finds a struct field by case-insensitive name.
func fieldFold(v reflect.Value, name string) reflect.Value {
	t := v.Type()
	for i := range t.NumField() {
		if strings.EqualFold(t.Field(i).Name, name) {
			return v.Field(i)
		}
	}
	return reflect.Value{}
}

// bindingAt returns the key.Binding held by v.
func bindingAt(v reflect.Value) (key.Binding, bool) {
	if !v.IsValid() || !v.CanSet() {
		return key.Binding{}, false
	}
	b, ok := v.Interface().(key.Binding)
	return b, ok
}

// fieldNames lists a struct's field names in lower case.
func fieldNames(v reflect.Value) string {
	t := v.Type()
	out := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		out = append(out, strings.ToLower(t.Field(i).Name))
	}
	return strings.Join(out, ", ")
}
