package redact

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler is a slog.Handler that masks credentials in every record
// (message, string, error, Stringer and other attribute values, groups and
// attributes added with WithAttrs included) before the wrapped handler
// sees it, so no log line can carry a token.
type Handler struct {
	inner slog.Handler
	m     Masker
}

// NewHandler wraps inner so that every record is masked with m.
func NewHandler(inner slog.Handler, m Masker) *Handler {
	if h, ok := inner.(*Handler); ok {
		// Already masking: merge the secrets instead of nesting.
		merged := h.m
		for _, s := range m.secrets {
			merged = merged.With(s)
		}
		return &Handler{inner: h.inner, m: merged}
	}
	return &Handler{inner: inner, m: m}
}

// Logger returns a logger whose records go through a masking handler
// around l's handler (a nil l discards everything).
func Logger(l *slog.Logger, m Masker) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(NewHandler(l.Handler(), m))
}

// Masker returns the masker this handler applies.
func (h *Handler) Masker() Masker { return h.m }

// Enabled implements slog.Handler.
func (h *Handler) Enabled(ctx context.Context, lv slog.Level) bool {
	return h.inner.Enabled(ctx, lv)
}

// Handle implements slog.Handler.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.m.String(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out) //nolint:wrapcheck // pass-through
}

// WithAttrs implements slog.Handler.
func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(as))
	for i, a := range as {
		masked[i] = h.attr(a)
	}
	return &Handler{inner: h.inner.WithAttrs(masked), m: h.m}
}

// WithGroup implements slog.Handler.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{inner: h.inner.WithGroup(name), m: h.m}
}

// attr masks one attribute (its key too: a key can be built from data).
func (h *Handler) attr(a slog.Attr) slog.Attr {
	key := h.m.String(a.Key)
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(key, h.m.String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]any, len(g))
		for i, ga := range g {
			out[i] = h.attr(ga)
		}
		return slog.Group(key, out...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case nil:
			return slog.Attr{Key: key, Value: v}
		case error:
			return slog.String(key, h.m.String(x.Error()))
		case fmt.Stringer:
			return slog.String(key, h.m.String(x.String()))
		case []byte:
			return slog.String(key, h.m.String(string(x)))
		default:
			return slog.String(key, h.m.String(fmt.Sprint(x)))
		}
	}
	return slog.Attr{Key: key, Value: v}
}
