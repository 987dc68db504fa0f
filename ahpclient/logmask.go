package ahpclient

import (
	"context"
	"fmt"
	"log/slog"
)

// maskHandler masks tokens in every log record (message, string, error
// and Stringer attributes, groups included) before the wrapped handler sees
// it, so no log line can carry the connection token.
type maskHandler struct {
	inner slog.Handler
	m     masker
}

// newMaskedLogger wraps l's handler with maskHandler.
func newMaskedLogger(l *slog.Logger, m masker) *slog.Logger {
	return slog.New(&maskHandler{inner: l.Handler(), m: m})
}

// Enabled implements slog.Handler.
func (h *maskHandler) Enabled(ctx context.Context, lv slog.Level) bool {
	return h.inner.Enabled(ctx, lv)
}

// Handle implements slog.Handler.
func (h *maskHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.m.mask(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

// WithAttrs implements slog.Handler.
func (h *maskHandler) WithAttrs(as []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(as))
	for i, a := range as {
		masked[i] = h.attr(a)
	}
	return &maskHandler{inner: h.inner.WithAttrs(masked), m: h.m}
}

// WithGroup implements slog.Handler.
func (h *maskHandler) WithGroup(name string) slog.Handler {
	return &maskHandler{inner: h.inner.WithGroup(name), m: h.m}
}

// attr masks one attribute.
func (h *maskHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.m.mask(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]any, len(g))
		for i, ga := range g {
			out[i] = h.attr(ga)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, h.m.mask(x.Error()))
		case fmt.Stringer:
			return slog.String(a.Key, h.m.mask(x.String()))
		default:
			return slog.String(a.Key, h.m.mask(fmt.Sprint(x)))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
