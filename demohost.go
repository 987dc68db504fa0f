package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/ahphost"
)

// demoOutage is how long the demo host refuses new connections after the
// demo fault key dropped them, so that "Reconnecting n" is visible.
const demoOutage = 2 * time.Second

// demoHost runs the embedded host for `ahptui demo` behind a gate that can
// refuse connections for a while (fault injection).
type demoHost struct {
	h        *ahphost.Host
	srv      *http.Server
	url      string
	refuseTo atomic.Int64 // unix nanos until which upgrades get 503
	done     chan struct{}
}

// startDemoHost listens on a random loopback port.
func startDemoHost(h *ahphost.Host, log *slog.Logger) (*demoHost, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo host: listen: %w", err)
	}
	d := &demoHost{h: h, url: h.ConnectURL(ln.Addr().String()), done: make(chan struct{})}
	inner := h.Handler()
	d.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if time.Now().UnixNano() < d.refuseTo.Load() {
				http.Error(w, "demo outage (AHPTUI_DEMO_FAULTS)", http.StatusServiceUnavailable)
				return
			}
			inner.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	go func() {
		defer close(d.done)
		if err := d.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("demo host stopped", "err", err)
		}
	}()
	return d, nil
}

// dropConnections is the demo fault: refuse reconnects for demoOutage and
// drop every open connection abruptly.
func (d *demoHost) dropConnections() {
	d.refuseTo.Store(time.Now().Add(demoOutage).UnixNano())
	d.h.DropAll()
}

// close stops the listener and the host.
func (d *demoHost) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = d.h.Close()
	_ = d.srv.Shutdown(ctx)
	_ = d.srv.Close()
	<-d.done
}
