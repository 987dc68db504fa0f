// Package keymap declares every key binding of ahptui exactly once, grouped
// by the context in which it is active, and feeds the help overlay.
//
// Bindings are built by [Default], so callers never share mutable state.
// Modes switch bindings with key.Binding.SetEnabled rather than if-guards.
// A context is a set of bindings that can be live at the same time; a test
// proves that no two enabled bindings of one context share a key.
//
// Example:
//
//	km := keymap.Default()
//	switch {
//	case key.Matches(msg, km.Composer.Send):
//		// send the draft
//	case key.Matches(msg, km.Global.Quit):
//		// quit
//	}
package keymap
