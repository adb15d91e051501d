package fleettest

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet/server"
)

// RunService makes the fleet's streams and buckets (one replica) on the operator's
// connection op and runs the claim service for reg, with o's ledgers, trust, limits…,
// until the test ends. It returns once the service answers.
func RunService(t testing.TB, op *nats.Conn, reg *server.Registry, o server.ServiceOptions) (jetstream.JetStream, *server.Stores) {
	t.Helper()
	js, err := jetstream.New(op)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stores, err := server.EnsureStores(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	sctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		o.Registry, o.Ready = reg, ready
		if err := server.NewService(op, stores, o).Run(sctx); err != nil {
			t.Error(err)
			close(ready)
		}
	}()
	t.Cleanup(func() { stop(); <-done })
	<-ready
	return js, stores
}
