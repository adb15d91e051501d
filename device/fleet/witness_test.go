package fleet_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/device/metrics"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
	"github.com/packterm/pos/validate/settle"
)

// TestWitnessRefusesForgedRecords: each of the insider's records, alone, in the fleet's
// shoes. Retailer 100 is root on T000 (registered with its device key, as is T001): it
// holds T000's fleet credentials and device key. T000 pays a claimed ticket genuinely,
// then the retailer publishes with T000's credentials one record their own tool wrote:
// (a) unsigned, (b) signed with another key, (c) signed with the device key but chained
// to a forged Prev. The claim service's witness records the finding in the refusals
// stream with its reason and record, and refuses every later claim of T000
// (journal-unverified) and the metrics count it by reason; T001 is still answered; the
// report's check of the stream finds the record with the matching reason. Before, the
// record was taken and T000 went on being paid.
func TestWitnessRefusesForgedRecords(t *testing.T) {
	_, stranger, _ := ed25519.GenerateKey(nil)
	for _, c := range []struct {
		name           string
		key            func(device ed25519.PrivateKey) ed25519.PrivateKey
		forgedPrev     bool
		reason, report string
	}{
		{"unsigned", func(ed25519.PrivateKey) ed25519.PrivateKey { return nil }, false, fleet.WitnessUnsigned, settle.ReasonUnsigned},
		{"another key", func(ed25519.PrivateKey) ed25519.PrivateKey { return stranger }, false, fleet.WitnessBadSignature, settle.ReasonBadSignature},
		{"forged prev", func(d ed25519.PrivateKey) ed25519.PrivateKey { return d }, true, fleet.WitnessRechained, settle.ReasonRechained},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newRegistry(t, 2)
			dirs := map[string]string{}
			journals := map[string]*journal.Journal{}
			for i, id := range []string{"T000", "T001"} {
				dirs[id] = t.TempDir()
				j, err := journal.Open(dirs[id], journal.Options{Terminal: id})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { j.Close() })
				journals[id] = j
				f.reg.Terminals[i].DevicePub = server.EncodeDeviceKey(j.PublicKey())
			}
			m := metrics.NewFleet()
			wit := f.startWithWitness(t, m)
			tm := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.Journal, o.StateDir = journals["T000"], dirs["T000"] })
			tm.j = journals["T000"] // the journal the client publishes
			waitOnline(t, tm.c)
			ctx := context.Background()
			if _, err := tm.c.Claim(ctx, codeOf(ticketN(0)), lotOf(ticketN(0))); err != nil {
				t.Fatal(err)
			}
			genuine, err := tm.j.Append(payout(ticketN(0), lotOf(ticketN(0)), false))
			if err != nil {
				t.Fatal(err)
			}
			if err := tm.c.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			device, err := ledger.LoadPrivateKey(filepath.Join(dirs["T000"], journal.DeviceKeyFile))
			if err != nil {
				t.Fatal(err)
			}
			r := journal.Record{Entry: payout(ticketN(1), lotOf(ticketN(1)), false), Terminal: "T000", Seq: genuine.Seq + 1, Boot: genuine.Boot, Prev: genuine.Hash}
			r.Time = genuine.Time.Add(time.Minute)
			if c.forgedPrev {
				r.Prev = [32]byte{0xfe}
			}
			enc, forged, err := testblock.ForgeRecord(r, c.key(device))
			if err != nil {
				t.Fatal(err)
			}
			in := newInsider(t, f, "T000")
			ijs, _ := jetstream.New(in.nc)
			if _, err := ijs.Publish(ctx, fleet.JournalSubject(&forged), enc, jetstream.WithMsgID(fleet.MsgID(&forged))); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, bad := wit.Unverified("T000"); bad {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the witness never marked T000")
				}
			}
			if rep := in.claim(fleet.ClaimRequest{Ticket: ticketN(2), Code: codeOf(ticketN(2)).String(), Amount: lotOf(ticketN(2))}); rep.Result != fleet.ResultRefused ||
				rep.Reason != fleet.RefusedJournalUnverified {
				t.Fatalf("T000's claim: %+v", rep)
			}
			var refused *fleet.RefusedError
			if _, err := tm.c.Claim(ctx, codeOf(ticketN(3)), lotOf(ticketN(3))); !errors.As(err, &refused) || refused.Reason != fleet.RefusedJournalUnverified {
				t.Fatalf("T000's client claim: %v", err)
			}
			other := f.terminal(t, "T001", f.urls[0], func(o *fleet.Options) { o.Journal, o.StateDir = journals["T001"], dirs["T001"] })
			waitOnline(t, other.c)
			if cl, err := other.c.Claim(ctx, codeOf(ticketN(4)), lotOf(ticketN(4))); err != nil || cl.Terminal != "T001" {
				t.Fatalf("T001's claim: %+v %v", cl, err)
			}
			hs := httptest.NewServer(m.Handler())
			defer hs.Close()
			if got := sample(t, scrape(t, hs.URL), `fleet_journal_records_refused_total{reason="`+c.reason+`"}`); got != 1 {
				t.Errorf("metric of %s: %v", c.reason, got)
			}
			var found bool
			for _, rf := range refusals(t, f.js) {
				found = found || rf.Reason == c.reason && rf.Record == "T000/2" && rf.Terminal == "T000"
			}
			if !found {
				t.Errorf("no %s finding of T000/2 in %+v", c.reason, refusals(t, f.js))
			}
			recs, _ := streamRecords(t, f)
			w := settle.CheckRecords(recs, f.reg.DeviceKeys())
			if len(w.Findings) != 1 || w.Findings[0].Record != "T000/2" || w.Findings[0].Reason != c.report {
				t.Errorf("report's check: %+v", w.Findings)
			}
		})
	}
}

// startWithWitness starts a single node, a witness on the operator's connection (o its
// observer) and the claim service asking it; the witness has checked the (empty) stream when it returns.
func (f *testFleet) startWithWitness(t *testing.T, o server.WitnessObserver) *server.Witness {
	t.Helper()
	f.startNodes(t, 1, nil)
	ready := make(chan struct{})
	wit := server.NewWitness(f.js, server.WitnessOptions{Registry: f.reg, Ready: ready, Observer: o})
	f.svc = func(so *server.ServiceOptions) { so.Witness = wit }
	f.startServices(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- wit.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	select {
	case <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	return wit
}
