package main

import (
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
)

func init() {
	var fc fleetConn
	var replicas int
	var cc claimCheck
	c := &cobra.Command{
		Use:   "service --data DIR --url URL --ledgers DIR --pub KEY [--replicas 3]",
		Short: "Run the claim service against an external NATS cluster (creates the stream and buckets)",
		Long: "Connect to a NATS cluster as the operator (DIR/operator.nk, or --creds), create or update the journal stream\n" +
			"and the claims, conflicts and status buckets with --replicas copies, and serve the terminals'\n" +
			"claims, conflicts and status requests. Run one per node or more: they share the work.\n" +
			"Claims are checked as posctl fleet serve checks them (--ledgers, --pub, --claim-rate, --claim-burst).",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			reg, err := server.LoadRegistry(fc.data)
			if err != nil {
				return err
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
			nc, err := server.ConnectOperator(fc.url, fc.credsFile(), fc.ca)
			if err != nil {
				return err
			}
			defer nc.Close()
			js, err := jetstream.New(nc)
			if err != nil {
				return err
			}
			st, err := cc.setupStores(ctx, js, replicas, so.Logger)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "claim service on %s (replicas %d)\n", fc.url, replicas)
			// The requests on a connection of their own (ServiceOptions.Requests).
			if so.Requests, err = server.ConnectOperator(fc.url, fc.credsFile(), fc.ca); err != nil {
				return err
			}
			defer so.Requests.Close()
			wit := cc.startWitness(ctx, js, &so)
			svc := server.NewService(nc, st, so)
			cc.watch(ctx, fc.data, so.Logger, func(r *server.Registry) error { svc.SetRegistry(r); wit.SetRegistry(r); return nil })
			return svc.Run(ctx)
		},
	}
	fc.flags(c)
	c.Flags().IntVar(&replicas, "replicas", 3, "copies of the stream and buckets (the cluster's size, 3 or 5)")
	cc.flags(c)
	fleetCmd.AddCommand(c)
}
