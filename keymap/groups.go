package keymap

import (
	"reflect"

	"charm.land/bubbles/v2/key"
)

// Group is a titled list of bindings, one section of the help overlay.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Context is a set of bindings that can be live at the same moment.
type Context struct {
	Name     string
	Bindings []key.Binding
}

// bindingsOf returns the key.Binding fields of a context struct in
// declaration order, so no binding can be forgotten by the help overlay.
func bindingsOf(v any) []key.Binding {
	rv := reflect.ValueOf(v)
	out := make([]key.Binding, 0, rv.NumField())
	for i := range rv.NumField() {
		if kb, ok := rv.Field(i).Interface().(key.Binding); ok {
			out = append(out, kb)
		}
	}
	return out
}

func enabled(bs []key.Binding) []key.Binding {
	out := bs[:0:0]
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// Groups returns every enabled binding grouped by context, in the order the
// help overlay shows them. Disabled bindings (e.g. demo keys) are left out.
func (km KeyMap) Groups() []Group {
	gs := []Group{
		{"Global", bindingsOf(km.Global)},
		{"Chat", bindingsOf(km.Chat)},
		{"Composer", bindingsOf(km.Composer)},
		{"Transcript", bindingsOf(km.Transcript)},
		{"Approval prompt", bindingsOf(km.Approval)},
		{"Sign-in needed", bindingsOf(km.Auth)},
		{"Question form", bindingsOf(km.Form)},
		{"Session picker", bindingsOf(km.Picker)},
		{"Peek (inbox)", bindingsOf(km.Peek)},
		{"Dialogs", bindingsOf(km.Confirm)},
		{"Help", bindingsOf(km.Help)},
		{"Completions", bindingsOf(km.Completion)},
		{"Queued messages", bindingsOf(km.Queue)},
		{"Search", bindingsOf(km.Search)},
		{"Background work", bindingsOf(km.Background)},
		{"Sign in", bindingsOf(km.SignIn)},
		{"Changes view", bindingsOf(km.Changes)},
		{"Review comments", bindingsOf(km.Notes)},
		{"Terminal viewer", bindingsOf(km.Terminal)},
		{"Typing into a terminal", bindingsOf(km.TermInput)},
		{"After ctrl+x (composer)", bindingsOf(km.Chord)},
		{"Prompt history search", bindingsOf(km.HistorySearch)},
		{"/copy: code blocks", bindingsOf(km.CopyPick)},
		{"Demo", bindingsOf(km.Demo)},
	}
	out := gs[:0]
	for _, g := range gs {
		g.Bindings = enabled(g.Bindings)
		if len(g.Bindings) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// Contexts returns the sets of bindings that are live together: the global
// and demo bindings plus each screen's own. A key must not appear twice among
// the enabled bindings of one context.
func (km KeyMap) Contexts() []Context {
	base := append(bindingsOf(km.Global), bindingsOf(km.Demo)...)
	with := func(parts ...[]key.Binding) []key.Binding {
		out := append([]key.Binding(nil), base...)
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	return []Context{
		{"picker", with(bindingsOf(km.Picker))},
		{"chat/composer", with(bindingsOf(km.Chat), bindingsOf(km.Composer))},
		{"chat/transcript", with(bindingsOf(km.Chat), bindingsOf(km.Transcript), bindingsOf(km.Notes))},
		{"approval", with(bindingsOf(km.Approval))},
		{"auth", with(bindingsOf(km.Auth))},
		{"form", with(bindingsOf(km.Form))},
		{"confirm", with(bindingsOf(km.Confirm))},
		{"peek", with(bindingsOf(km.Peek))},
		{"help", with(bindingsOf(km.Help))},
		{"completion", with(bindingsOf(km.Completion))},
		{"queue", with(bindingsOf(km.Queue))},
		{"search", with(bindingsOf(km.Search))},
		{"background", with(bindingsOf(km.Background))},
		{"sign-in", with(bindingsOf(km.SignIn))},
		{"changes", with(bindingsOf(km.Changes), []key.Binding{km.Notes.Comment})},
		{"terminal", with(bindingsOf(km.Terminal))},
		{"terminal input", with(bindingsOf(km.TermInput))},
		{"chord", with(bindingsOf(km.Chord))},
		{"history search", with(bindingsOf(km.HistorySearch))},
		{"copy pick", with(bindingsOf(km.CopyPick))},
	}
}

// Conflicts reports, for one context, every key bound by more than one
// enabled binding, mapped to the help descriptions of those bindings.
func Conflicts(c Context) map[string][]string {
	seen := map[string][]string{}
	for _, b := range enabled(c.Bindings) {
		for _, kk := range b.Keys() {
			seen[kk] = append(seen[kk], b.Help().Desc)
		}
	}
	out := map[string][]string{}
	for kk, descs := range seen {
		if len(descs) > 1 {
			out[kk] = descs
		}
	}
	return out
}
