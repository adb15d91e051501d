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
// connection of its own to s, the status lists checked with trust (the service's --pub
// keys), and returns what takes each new registry.
func (f *consoleFlags) start(ctx context.Context, s *server.Server, data string, reg *server.Registry, trust *ledger.TrustStore, w io.Writer, log *slog.Logger) (func(*server.Registry) error, error) {
	if f.addr == "" {
		return func(*server.Registry) error { return nil }, nil
	}
	nc, err := s.ConnectInProcess(filepath.Join(data, server.OperatorSeedFile))
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	apply, feed, err := f.serve(ctx, js, data, reg, trust, w, log)
	if err != nil {
		nc.Close()
		return nil, err
	}
	go func() {
		if err := feed(); err != nil {
			log.Error("fleet: console: the feed stopped", "err", err)
		}
		nc.Close()
	}()
	return apply, nil
}

// serve serves the console on f.addr until ctx ends, reading the fleet through js; it
// returns what takes each new registry and the feed to run (until ctx ends).
func (f *consoleFlags) serve(ctx context.Context, js jetstream.JetStream, data string, reg *server.Registry, trust *ledger.TrustStore,
	w io.Writer, log *slog.Logger) (func(*server.Registry) error, func() error, error) {
	path, token, err := console.EnsureToken(data)
	if err != nil {
		return nil, nil, err
	}
	var last atomic.Pointer[server.Registry] // the last registry read: kept when terminals.json does not read
	last.Store(reg)
	o := console.Options{Addr: f.addr, Hosts: f.hosts, Token: token, Logger: log, Trust: trust}
	if len(f.sf.manifests) > 0 {
		truth, err := f.sf.truth()
		if err != nil {
			return nil, nil, err
		}
		opts, err := f.sf.options()
		if err != nil {
			return nil, nil, err
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
		return nil, nil, err
	}
	con.Model().SetRegistry(reg)
	st, err := server.OpenStores(ctx, js)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, nil, fmt.Errorf("fleet: console: %w", err)
	}
	hs := &http.Server{Handler: con, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	go func() { <-ctx.Done(); hs.Close() }()
	fmt.Fprintf(w, "console on http://%s (login token in %s)\n", ln.Addr(), path)
	apply := func(r *server.Registry) error { last.Store(r); con.Model().SetRegistry(r); return nil }
	return apply, func() error { return con.Feed(ctx, js, st, nil) }, nil
}

func init() {
	var fc fleetConn
	var cf consoleFlags
	var pubs []string
	var poll time.Duration
	c := &cobra.Command{
		Use:   "console --data DIR --console HOST:PORT [--url URL] [--manifest M|DIR …] [--pub KEY …]",
		Short: "Serve the operator's console (read-only web pages of the fleet) beside a fleet server or cluster",
		Long: "Connect to the fleet as the operator (as fleet report does) and serve the operator's console on\n" +
			"--console (docs/console.md): its login token is written once to DIR/console.token; --manifest\n" +
			"(as fleet settle takes it) gives it the settlement page, --pub checks the status lists. It only\n" +
			"reads the fleet. DIR/terminals.json is read again every --registry-poll.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if cf.addr == "" {
				return fmt.Errorf("fleet console: --console HOST:PORT is required")
			}
			reg, err := server.LoadRegistry(fc.data)
			if err != nil {
				return err
			}
			var trust *ledger.TrustStore
			if len(pubs) > 0 {
				if trust, err = loadTrust(pubs); err != nil {
					return err
				}
			}
			ctx, stop := interruptible(c.Context())
			defer stop()
			nc, js, _, err := fc.open(ctx)
			if err != nil {
				return err
			}
			defer nc.Close()
			log := slog.New(slog.NewTextHandler(c.ErrOrStderr(), nil))
			apply, feed, err := cf.serve(ctx, js, fc.data, reg, trust, c.OutOrStdout(), log)
			if err != nil {
				return err
			}
			go server.WatchRegistry(ctx, fc.data, server.WatchOptions{Every: poll, Logger: log, Apply: []func(*server.Registry) error{apply}})
			if err := feed(); err != nil && ctx.Err() == nil {
				return err
			}
			return nil // interrupted
		},
	}
	fc.flags(c)
	cf.add(c)
	c.Flags().StringArrayVar(&pubs, "pub", nil, "operator public key the status lists are checked with (repeatable)")
	c.Flags().DurationVar(&poll, "registry-poll", server.DefaultRegistryPoll, "how often terminals.json is read again")
	fleetCmd.AddCommand(c)
}
