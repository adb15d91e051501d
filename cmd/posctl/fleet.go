package main

import (
	"context"
	"path/filepath"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/journal"
)

// fleetCmd is the parent of the operator's fleet commands (fleet_*.go, docs/fleet.md).
var fleetCmd = &cobra.Command{Use: "fleet", Short: "The operator's fleet on NATS JetStream: server, terminals, report, settlement"}

func init() { root.AddCommand(fleetCmd) }

// fleetConn is the operator tools' flags: the data directory (operator seed, registry)
// and the server.
type fleetConn struct{ data, url, ca, creds string }

func (f *fleetConn) flags(c *cobra.Command) {
	c.Flags().StringVar(&f.data, "data", "", "fleet data directory (operator.nk, terminals.json)")
	c.Flags().StringVar(&f.creds, "creds", "", "the operator's credentials: a .creds file on a cluster in operator/account (JWT) mode (default DIR/operator.nk)")
	c.Flags().StringVar(&f.url, "url", "nats://"+server.DefaultListen, "fleet server URL (nats:// or tls://)")
	c.Flags().StringVar(&f.ca, "ca", "", "CA certificate of a tls:// server")
	c.MarkFlagRequired("data")
}

// credsFile is --creds, or the operator's nkey seed in the data directory.
func (f *fleetConn) credsFile() string {
	if f.creds != "" {
		return f.creds
	}
	return filepath.Join(f.data, server.OperatorSeedFile)
}

// open connects as the operator and binds the stores.
func (f *fleetConn) open(ctx context.Context) (*nats.Conn, jetstream.JetStream, *server.Stores, error) {
	nc, err := server.ConnectOperator(f.url, f.credsFile(), f.ca)
	if err != nil {
		return nil, nil, nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, nil, err
	}
	st, err := server.OpenStores(ctx, js)
	if err != nil {
		nc.Close()
		return nil, nil, nil, err
	}
	return nc, js, st, nil
}

// fleetRecords reads the whole journal stream, and the messages the reader refused.
func fleetRecords(ctx context.Context, js jetstream.JetStream) ([]journal.Record, []server.BadMessage, error) {
	var recs []journal.Record
	bad, err := server.ReadJournal(ctx, js, func(r journal.Record) error { recs = append(recs, r); return nil })
	return recs, bad, err
}
