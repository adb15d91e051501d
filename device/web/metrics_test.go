package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/device/metrics"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/ledger"
)

// metricValue is the value of the sample line name (with its labels) in a scrape; -1
// when absent.
func metricValue(t *testing.T, body, name string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(body)
	if m == nil {
		return -1
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMetricsScraped: posd's /metrics (Prometheus text format) on an emulated terminal,
// under the status page's token rules (here required: refused without it); a scan, a
// payout and a printer fault move the counters, the journal lag gauge is read at each
// scrape.
func TestMetricsScraped(t *testing.T) {
	blk, err := testblock.Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	trust, _ := ledger.LoadTrustStore(blk.Pub)
	l, err := ledger.OpenFile(blk.Ledger, trust)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var rig *emulated.Rig
	m := metrics.NewTerminal(metrics.TerminalSources{JournalLag: func() (uint64, bool) {
		seq, _ := rig.Journal.Head() // no fleet: nothing acknowledged
		return seq, true
	}})
	rig, err = emulated.Start(context.Background(), emulated.Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{l}, AllDelivered: true,
		PerTicket: 20_00, Observer: m, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rig.Close() })
	<-rig.Terminal.Ready()
	srv, err := New(Options{Emulator: rig, TokenSHA256: testTokenSHA(), RequireToken: true, Metrics: m.Handler(),
		Parts: &Parts{TerminalID: "EMU-0001", Terminal: rig.Terminal, Journal: rig.Journal}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	if code, _ := get(t, http.DefaultClient, hs.URL+"/metrics", nil); code != http.StatusUnauthorized {
		t.Fatalf("metrics without the token: %d", code)
	}
	code, before := get(t, http.DefaultClient, hs.URL+"/metrics", auth)
	if code != http.StatusOK || metricValue(t, before, "posd_fleet_journal_lag_records") < 0 {
		t.Fatalf("metrics: %d\n%s", code, before)
	}
	r, err := blk.Find(func(r block.Row) bool { return r.Prize == 5_00 })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, line := range []string{r.Validation, "!ok", "!cover-open", "!cover-close"} {
		if _, err := rig.Do(ctx, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	_, after := get(t, http.DefaultClient, hs.URL+"/metrics", auth)
	for name, want := range map[string]float64{
		"posd_scans_total":                             1,
		`posd_payouts_total{fleet="confirmed"}`:        1,
		`posd_payouts_cents_total{fleet="confirmed"}`:  500,
		`posd_verdicts_total{kind="payout",reason=""}`: 1,
		`posd_faults_total{part="cover"}`:              1,
	} {
		if got := metricValue(t, after, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if lag := metricValue(t, after, "posd_fleet_journal_lag_records"); lag <= metricValue(t, before, "posd_fleet_journal_lag_records") {
		t.Errorf("journal lag did not move: %v", lag)
	}
	if t.Failed() {
		t.Log(after)
	}
}
