package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/internal/redact"
)

// watchSignals returns a context cancelled by SIGINT, SIGTERM or SIGHUP,
// a function reporting the signal that cancelled it (nil if none) and a
// stop function that releases the signals.
func watchSignals(parent context.Context) (context.Context, func() os.Signal, func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, append([]os.Signal{os.Interrupt}, termSignals...)...)
	var mu sync.Mutex
	var got os.Signal
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			mu.Lock()
			got = s
			mu.Unlock()
			cancel()
		case <-done:
		}
	}()
	caught := func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
	return ctx, caught, stop
}

// runUI runs the Bubble Tea program (created WithoutSignalHandler) until it
// ends. SIGINT, SIGTERM and SIGHUP kill it, which restores the terminal,
// and give the conventional exit code 128+signo; a panic Bubble Tea caught
// (in Update, View or a command) gives exitError with a message. code is
// -1 when the program ended normally.
func runUI(p *tea.Program, std stdio, log *slog.Logger) (final tea.Model, code int) {
	ctx, caught, stop := watchSignals(context.Background())
	defer stop()
	go func() {
		<-ctx.Done()
		if caught() != nil {
			p.Kill()
		}
	}()
	stopProfile := startProfile(log) // profile.go
	final, err := p.Run()
	stopProfile()
	if sig := caught(); sig != nil {
		log.Info("ended by signal", "signal", sig.String())
		return final, signalExitCode(sig)
	}
	switch {
	case errors.Is(err, tea.ErrProgramPanic):
		log.Error("ui panicked", "err", err)
		printErr(std.err, "ahptui: internal error: the UI panicked (details above and in the log); the terminal was restored\n")
		return final, exitError
	case err != nil && !errors.Is(err, tea.ErrProgramKilled):
		log.Error("ui failed", "err", err)
		printErr(std.err, "ahptui: %v\n", err)
		return final, exitError
	}
	return final, -1
}

// printErr writes a message for the user with every credential masked.
func printErr(w io.Writer, format string, args ...any) {
	_, _ = io.WriteString(w, redact.String(fmt.Sprintf(format, args...)))
}

// getenvTestPanic reports whether AHPTUI_TEST_PANIC asks for a deliberate
// crash in a goroutine outside the UI (used by the crash-recovery test).
func getenvTestPanic() bool { return lookupEnv("AHPTUI_TEST_PANIC") == "goroutine" }
