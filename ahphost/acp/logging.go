package acp

import (
	"context"
	"log/slog"
)

// maxLogAttr bounds a string attribute the SDK logs (it logs whole
// unparsable lines, which a hostile agent makes 10 MiB long).
const maxLogAttr = 512

// sdkLogger returns the logger handed to the SDK: attributes bounded and
// masked, errors demoted to warnings (a broken agent is not a host error).
func (b *Bridge) sdkLogger() *slog.Logger {
	return slog.New(boundedHandler{b.log.Handler(), b.auth.mask})
}

// boundedHandler truncates and masks string attributes.
type boundedHandler struct {
	slog.Handler
	mask func(string) string // hides sign-in secrets too
}

func (h boundedHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, min(r.Level, slog.LevelWarn), "acp sdk: "+r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if a.Value.Kind() == slog.KindString {
			s := a.Value.String()
			if len(s) > maxLogAttr {
				s = s[:maxLogAttr] + "…"
			}
			a = slog.String(a.Key, h.mask(s))
		}
		out.AddAttrs(a)
		return true
	})
	return h.Handler.Handle(ctx, out)
}

func (h boundedHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return boundedHandler{h.Handler.WithAttrs(as), h.mask}
}

func (h boundedHandler) WithGroup(name string) slog.Handler {
	return boundedHandler{h.Handler.WithGroup(name), h.mask}
}
