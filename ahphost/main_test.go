package ahphost

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
)

// soakChildEnv, when set, makes the test binary act as `ahptui serve` with
// the arguments it holds (space-separated), for the soak test's subprocess.
const soakChildEnv = "AHPHOST_SERVE_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(soakChildEnv); ok {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := RunServe(ctx, strings.Fields(args), os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}
