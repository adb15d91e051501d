package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/device/metrics"
	"github.com/packterm/pos/validate/ledger"
)

// claimCheck is the claim service's flags: the operator's ledgers and keys it checks
// each claim with, and the per-terminal rate limit.
type claimCheck struct {
	ledgers string
	pubs    []string
	rate    float64
	burst   int
	// records and recordBurst limit each terminal's journal records; queue bounds its
	// requests waiting in the fair queue.
	records     float64
	recordBurst int
	queue       int
	setup       time.Duration // how long the stores' setup is retried (SetupStores)
	poll        time.Duration // how often terminals.json is looked at (WatchRegistry)
	metrics     string        // HOST:PORT of the Prometheus metrics ("": none)
}

func (cc *claimCheck) flags(c *cobra.Command) {
	c.Flags().StringVar(&cc.ledgers, "ledgers", "", "directory of the operator's signed block ledgers (block-B.ledger): every claim's code is checked against them")
	c.Flags().StringArrayVar(&cc.pubs, "pub", nil, "operator public key the ledgers and status lists are verified with (repeatable)")
	c.Flags().Float64Var(&cc.rate, "claim-rate", server.DefaultClaimRate, "claims per second a terminal may make, sustained")
	c.Flags().IntVar(&cc.burst, "claim-burst", server.DefaultClaimBurst, "claims a terminal may make at once")
	c.Flags().Float64Var(&cc.records, "record-rate", server.DefaultRecordRate, "journal records per second a terminal may publish, sustained")
	c.Flags().IntVar(&cc.recordBurst, "record-burst", server.DefaultRecordBurst, "journal records a terminal may publish at once")
	c.Flags().IntVar(&cc.queue, "queue", server.DefaultQueue, "requests of one terminal that may wait for a handler (the rest is dropped: a flood)")
	c.Flags().DurationVar(&cc.setup, "setup-timeout", 2*time.Minute, "how long to retry creating the streams and buckets (a cluster electing its leader, services started together)")
	c.Flags().DurationVar(&cc.poll, "registry-poll", server.DefaultRegistryPoll, "how often terminals.json is read again: terminals added or removed are taken without a restart")
	c.Flags().StringVar(&cc.metrics, "metrics", "", "serve the claim service's metrics (Prometheus text format) on HOST:PORT at /metrics")
	c.MarkFlagRequired("ledgers")
	c.MarkFlagRequired("pub")
}

// options loads and verifies the ledgers (fail closed: any file that does not verify
// stops the service) and returns the service's options.
func (cc *claimCheck) options(reg *server.Registry, c *cobra.Command) (server.ServiceOptions, error) {
	log := slog.New(slog.NewTextHandler(c.ErrOrStderr(), nil))
	if len(cc.pubs) == 0 {
		return server.ServiceOptions{}, errors.New("fleet: the claim service needs the operator's public key (--pub)")
	}
	trust, err := ledger.LoadTrustStore(cc.pubs...)
	if err != nil {
		return server.ServiceOptions{}, err
	}
	ls, err := server.LoadLedgers(cc.ledgers, trust, server.LedgerOptions{Logger: log})
	if err != nil {
		return server.ServiceOptions{}, err
	}
	fmt.Fprintf(c.OutOrStdout(), "claims checked against the ledgers of blocks %v in %s\n", ls.Blocks(), cc.ledgers)
	return server.ServiceOptions{Registry: reg, Ledgers: ls, Trust: trust, ClaimRate: cc.rate, ClaimBurst: cc.burst,
		RecordRate: cc.records, RecordBurst: cc.recordBurst, Queue: cc.queue, Logger: log}, nil
}

// setupStores creates or updates the streams and buckets, retried for --setup-timeout.
func (cc *claimCheck) setupStores(ctx context.Context, js jetstream.JetStream, replicas int, log *slog.Logger) (*server.Stores, error) {
	ctx, cancel := context.WithTimeout(ctx, cc.setup)
	defer cancel()
	return server.SetupStores(ctx, js, server.SetupOptions{Replicas: replicas, Logger: log})
}

// watch applies each new version of DIR/terminals.json until ctx ends (in a goroutine).
func (cc *claimCheck) watch(ctx context.Context, dir string, log *slog.Logger, apply ...func(*server.Registry) error) {
	go server.WatchRegistry(ctx, dir, server.WatchOptions{Every: cc.poll, Logger: log, Apply: apply})
}

// serveMetrics serves the claim service's metrics on --metrics until ctx ends, and makes
// them so's observer; nothing without --metrics.
func (cc *claimCheck) serveMetrics(ctx context.Context, so *server.ServiceOptions, w io.Writer) error {
	if cc.metrics == "" {
		return nil
	}
	m := metrics.NewFleet()
	so.Observer = m
	ln, err := net.Listen("tcp", cc.metrics)
	if err != nil {
		return fmt.Errorf("fleet: metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	go func() { <-ctx.Done(); hs.Close() }()
	fmt.Fprintf(w, "metrics on http://%s/metrics\n", ln.Addr())
	return nil
}

// startWitness runs the fleet's witness beside the claim service until ctx ends (started
// again after a failure, the stream out of reach) and makes it so's: the service refuses
// the claims of a terminal whose published journal fails it.
func (cc *claimCheck) startWitness(ctx context.Context, js jetstream.JetStream, so *server.ServiceOptions) *server.Witness {
	log := so.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	wo := server.WitnessOptions{Registry: so.Registry, Clock: so.Clock, Logger: log}
	wo.Observer, _ = so.Observer.(server.WitnessObserver)
	w := server.NewWitness(js, wo)
	so.Witness = w
	clock := so.Clock
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	go func() {
		for ctx.Err() == nil {
			if err := w.Run(ctx); err != nil {
				log.Error("fleet witness stopped; starting again", "err", err)
			}
			select {
			case <-ctx.Done():
			case <-clock.After(witnessRetry):
			}
		}
	}()
	return w
}

// witnessRetry is how long the witness waits before it starts again after a failure.
const witnessRetry = 5 * time.Second
