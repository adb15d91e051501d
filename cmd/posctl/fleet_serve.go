package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
)

func init() {
	var data, listen, cert, key string
	var cc claimCheck
	var cf consoleFlags
	c := &cobra.Command{
		Use:   "serve --data DIR --ledgers DIR --pub KEY [--listen HOST:PORT]",
		Short: "Run the embedded single-node fleet server (JetStream, file storage) and the claim service",
		Long: "Run an embedded NATS server with JetStream on DIR (file storage, fsync on every write), create\n" +
			"the journal stream and the claims, conflicts and status buckets, and serve the terminals' claims.\n" +
			"DIR/operator.nk (created once) is the operator's key; DIR/terminals.json lists the terminals\n" +
			"(posctl fleet add-terminal; read again every --registry-poll: no restart). One server per DIR\n" +
			"(a second is refused). TLS is on with --tls-cert and --tls-key.\n" +
			"Every claim must carry the ticket's validation code: it is checked against the block ledgers of\n" +
			"--ledgers (verified with the --pub keys; a file that does not verify stops the service), the\n" +
			"amount is the ledger's, the pack must be delivered to the terminal's retailer per its status list\n" +
			"(publish-status), and each terminal is held to --claim-rate/--claim-burst. Refused claims are\n" +
			"recorded (posctl fleet refusals).\n" +
			"--console HOST:PORT serves the operator's console (docs/console.md): its login token is written\n" +
			"once to DIR/console.token; --manifest (as fleet settle takes it) gives it the settlement page.\n" +
			"For a real cluster of 3 or more nodes see docs/fleet.md.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := os.MkdirAll(data, 0o700); err != nil {
				return fmt.Errorf("fleet serve: %w", err)
			}
			lock, err := server.LockData(data)
			if err != nil {
				return err
			}
			defer lock.Release()
			reg, err := server.InitData(data)
			if err != nil {
				return err
			}
			o := server.Options{DataDir: data, Listen: listen, Registry: reg, SyncAlways: true}
			if cert != "" || key != "" {
				pair, err := tls.LoadX509KeyPair(cert, key)
				if err != nil {
					return fmt.Errorf("fleet serve: TLS: %w", err)
				}
				o.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
			}
			so, err := cc.options(reg, c)
			if err != nil {
				return err
			}
			ctx, stop := interruptible(c.Context())
			defer stop()
			if err := cc.serveMetrics(ctx, &so, c.OutOrStdout()); err != nil {
				return err
			}
			return serveFleet(ctx, c, o, data, so, &cc, &cf)
		},
	}
	c.Flags().StringVar(&data, "data", "", "data directory")
	c.Flags().StringVar(&listen, "listen", server.DefaultListen, "client listener HOST:PORT")
	c.Flags().StringVar(&cert, "tls-cert", "", "server certificate (PEM)")
	c.Flags().StringVar(&key, "tls-key", "", "server private key (PEM)")
	c.MarkFlagRequired("data")
	cc.flags(c)
	cf.add(c)
	fleetCmd.AddCommand(c)
}

// serveFleet runs the server and the service (so: its ledgers, keys, limits; so.Ready,
// if set, is closed once it answers) until ctx is done.
func serveFleet(ctx context.Context, c *cobra.Command, o server.Options, data string, so server.ServiceOptions, cc *claimCheck, cf *consoleFlags) error {
	s, err := server.Start(o)
	if err != nil {
		return err
	}
	defer s.Shutdown()
	nc, err := s.ConnectInProcess(filepath.Join(data, server.OperatorSeedFile))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	st, err := cc.setupStores(ctx, js, 1, so.Logger)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.OutOrStdout(), "fleet server on %s (%d terminals registered)\n", s.URL(), len(o.Registry.Terminals))
	so.Registry = o.Registry
	// The requests on a connection of their own (ServiceOptions.Requests).
	if so.Requests, err = s.ConnectInProcess(filepath.Join(data, server.OperatorSeedFile)); err != nil {
		return err
	}
	defer so.Requests.Close()
	wit := cc.startWitness(ctx, js, &so)
	svc := server.NewService(nc, st, so)
	con, err := cf.start(ctx, s, data, o.Registry, so.Trust, c.OutOrStdout(), so.Logger)
	if err != nil {
		return err
	}
	cc.watch(ctx, data, so.Logger, s.SetRegistry, func(r *server.Registry) error { svc.SetRegistry(r); wit.SetRegistry(r); return con(r) })
	return svc.Run(ctx)
}
