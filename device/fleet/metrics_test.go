package fleet_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/device/metrics"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func sample(t *testing.T, body, name string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(body)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// TestServiceMetrics: the claim service's metrics (Prometheus text format) move with its
// work: claims by result, refusals by reason, the latency histogram, journal records
// received and terminals seen.
func TestServiceMetrics(t *testing.T) {
	f := newRegistry(t, 2)
	f.startNodes(t, 1, nil)
	f.block = fleettest.NewBlock(t, 7, 400, secretOf, tierOf)
	js, _ := jetstream.New(f.op)
	st, err := server.SetupStores(context.Background(), js, server.SetupOptions{Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	f.stores = st
	for _, r := range f.retailers() {
		f.publishStatus(t, f.block.Status(t, r, 1, f.block.Delivered()))
	}
	m := metrics.NewFleet()
	so := f.serviceOptions(t)
	so.Observer = m
	ready := make(chan struct{})
	so.Ready = ready
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Add(1)
	go func() { defer wg.Done(); server.NewService(f.op, st, so).Run(ctx) }()
	<-ready
	hs := httptest.NewServer(m.Handler())
	t.Cleanup(hs.Close)

	a, b := f.terminal(t, "T000", f.urls[0], nil), f.terminal(t, "T001", f.urls[0], nil)
	waitOnline(t, a.c)
	waitOnline(t, b.c)
	bg := context.Background()
	id := ticketN(2)
	if _, err := a.c.Claim(bg, codeOf(id), lotOf(id)); err != nil {
		t.Fatal(err)
	}
	a.c.Claim(bg, codeOf(id), lotOf(id)) // yours
	b.c.Claim(bg, codeOf(id), lotOf(id)) // taken
	var ref *fleet.RefusedError
	if _, err := b.c.Claim(bg, codes.ValidationCodeOf(ticketN(3), [codes.SecretSize]byte{1}), lotOf(ticketN(3))); !errors.As(err, &ref) {
		t.Fatalf("forged: %v", err)
	}
	for range 3 {
		if _, err := a.j.Append(journal.Entry{Kind: journal.KindRefused, Reason: "forged"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.c.Sync(bg); err != nil {
		t.Fatal(err)
	}
	var body string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		body = scrape(t, hs.URL)
		if sample(t, body, "fleet_journal_records_received_total") >= 3 || time.Now().After(deadline) {
			break
		}
	}
	for name, want := range map[string]float64{
		`fleet_claims_total{result="won"}`:                1,
		`fleet_claims_total{result="yours"}`:              1,
		`fleet_claims_total{result="taken"}`:              1,
		`fleet_claims_total{result="refused"}`:            1,
		`fleet_claim_refusals_total{reason="wrong-code"}`: 1,
		"fleet_claim_duration_seconds_count":              4,
		"fleet_journal_records_received_total":            3,
		"fleet_terminals_seen":                            2,
	} {
		if got := sample(t, body, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}

// TestServiceDropsStaleClaims: a claim that waited for a handler longer than StaleAfter
// is dropped unanswered (its terminal gave up) and counted "stale"; nothing is claimed.
// Here every claim is stale (StaleAfter 1 ns).
func TestServiceDropsStaleClaims(t *testing.T) {
	f := newRegistry(t, 1)
	m := metrics.NewFleet()
	f.svc = func(o *server.ServiceOptions) { o.StaleAfter, o.Observer = time.Nanosecond, m }
	f.start(t, 1, nil)
	tm := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.Timeout = 300 * time.Millisecond })
	waitOnline(t, tm.c)
	id := ticketN(4)
	if _, err := tm.c.Claim(context.Background(), codeOf(id), lotOf(id)); !errors.Is(err, fleet.ErrOffline) {
		t.Fatalf("stale claim: %v, want no answer (offline)", err)
	}
	if _, err := f.stores.Claims.Get(context.Background(), fleet.ClaimKey(id)); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("stale claim stored: %v", err)
	}
	hs := httptest.NewServer(m.Handler())
	defer hs.Close()
	if got := sample(t, scrape(t, hs.URL), `fleet_claims_total{result="stale"}`); got != 1 {
		t.Fatalf("stale claims counted %v", got)
	}
}
