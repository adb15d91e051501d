package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/console"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/ledger"
)

// consoleFlags are fleet serve's console flags: where it listens, the other names it
// answers to, and the settlement's manifests, definitions and limits.
type consoleFlags struct {
	addr  string
	hosts []string
	sf    settleFlags
}

func (f *consoleFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.addr, "console", "", "serve the operator's console (read-only web pages of the fleet, docs/console.md) on HOST:PORT")
	c.Flags().StringArrayVar(&f.hosts, "console-host", nil, "another name the console answers to (HOST or HOST:PORT; repeatable): every other Host is refused")
	f.sf.addTruth(c)
}

// start serves the console on f.addr until ctx ends (nothing without --console) on a
// connection of its own, the status lists checked with trust (the service's --pub
// keys), and returns what takes each new registry.
func (f *consoleFlags) start(ctx context.Context, s *server.Server, data string, reg *server.Registry, trust *ledger.TrustStore, w io.Writer, log *slog.Logger) (func(*server.Registry) error, error) {
	none := func(*server.Registry) error { return nil }
	if f.addr == "" {
		return none, nil
	}
	path, token, err := console.EnsureToken(data)
	if err != nil {
		return nil, err
	}
	var last atomic.Pointer[server.Registry] // the last registry read: kept when terminals.json does not read
	last.Store(reg)
	o := console.Options{Addr: f.addr, Hosts: f.hosts, Token: token, Logger: log, Trust: trust}
	if len(f.sf.manifests) > 0 {
		truth, err := f.sf.truth()
		if err != nil {
			return nil, err
		}
		opts, err := f.sf.options()
		if err != nil {
			return nil, err
		}
		o.Settling = &console.Settling{Truth: truth, Options: opts, DeviceKeys: func() func(string) []ed25519.PublicKey {
			if r, err := server.LoadRegistry(data); err == nil {
				last.Store(r)
			}
			return last.Load().DeviceKeys()
		}}
	}
	con, err := console.New(o)
	if err != nil {
		return nil, err
	}
	con.Model().SetRegistry(reg)
	nc, err := s.ConnectInProcess(filepath.Join(data, server.OperatorSeedFile))
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	st, err := server.OpenStores(ctx, js)
	if err != nil {
		nc.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("fleet: console: %w", err)
	}
	hs := &http.Server{Handler: con, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	go func() {
		if err := con.Feed(ctx, js, st, nil); err != nil {
			log.Error("fleet: console: the feed stopped", "err", err)
		}
	}()
	go func() { <-ctx.Done(); hs.Close(); nc.Close() }()
	fmt.Fprintf(w, "console on http://%s (login token in %s)\n", ln.Addr(), path)
	return func(r *server.Registry) error { last.Store(r); con.Model().SetRegistry(r); return nil }, nil
}
