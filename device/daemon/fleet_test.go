package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// testFleet is the operator's side: an embedded single-node JetStream server with file
// storage, the stores and the claim service (with the test block's ledger, verified with
// its operator key), and a seed per registered terminal.
type testFleet struct {
	srv    *server.Server
	js     jetstream.JetStream
	stores *server.Stores
	seeds  map[string]string
}

func newTestFleet(t *testing.T, tb *testBlock, retailers map[string]uint32) *testFleet {
	t.Helper()
	dir := t.TempDir()
	reg, err := server.InitData(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := &testFleet{seeds: map[string]string{}}
	for id, r := range retailers {
		p := filepath.Join(dir, id+".nk")
		kp, err := server.NewSeedFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := kp.PublicKey()
		reg.Terminals = append(reg.Terminals, server.Terminal{ID: id, Retailer: r, NKey: pub})
		f.seeds[id] = p
	}
	if f.srv, err = server.Start(server.Options{DataDir: dir, Listen: "127.0.0.1:0", Registry: reg}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.srv.Shutdown)
	op, err := server.ConnectOperator(f.srv.URL(), filepath.Join(dir, server.OperatorSeedFile), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(op.Close)
	trust, err := ledger.LoadTrustStore(tb.pub)
	if err != nil {
		t.Fatal(err)
	}
	ledgers, err := server.LoadLedgers(tb.dir, trust, server.LedgerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The service's view of deliveries is device/fleet's to test; here every pack of the
	// block counts as delivered to every retailer, so that the bucket's list stays what
	// this test publishes for the terminal to install.
	all := deliveredEverywhere{}
	for _, r := range retailers {
		data, err := ledger.MarshalStatus(&ledger.StatusList{Retailer: r, Version: 1, Ranges: []ledger.PackRange{
			{Block: testBlockNumber, First: 0, Count: 1 << 10, State: ledger.PackDelivered}}}, tb.key)
		if err != nil {
			t.Fatal(err)
		}
		if all[r], err = ledger.ParseStatus(data, trust); err != nil {
			t.Fatal(err)
		}
	}
	f.js, f.stores = fleettest.RunService(t, op, reg, server.ServiceOptions{Ledgers: ledgers, Status: all})
	return f
}

// deliveredEverywhere is a claim service's status source: every pack of the test block
// delivered to each retailer.
type deliveredEverywhere map[uint32]*ledger.StatusList

func (d deliveredEverywhere) Status(_ context.Context, retailer uint32) (*ledger.StatusList, error) {
	if l := d[retailer]; l != nil {
		return l, nil
	}
	return nil, server.ErrNoStatus
}

// claim reads the fleet's claim of a ticket.
func (f *testFleet) claim(t *testing.T, id codes.TicketID) (fleet.Claim, bool) {
	t.Helper()
	e, err := f.stores.Claims.Get(context.Background(), fleet.ClaimKey(id))
	if err != nil {
		return fleet.Claim{}, false
	}
	c, err := fleet.DecodeClaim(e.Value())
	if err != nil {
		t.Fatal(err)
	}
	return c, true
}

// published is every record of terminal id in the JOURNAL stream.
func (f *testFleet) published(t *testing.T, id string) []journal.Record {
	t.Helper()
	var out []journal.Record
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	bad, err := server.ReadJournal(ctx, f.js, func(r journal.Record) error {
		if r.Terminal == id {
			out = append(out, r)
		}
		return nil
	})
	if err != nil || len(bad) > 0 {
		t.Fatalf("reading the journal stream: %v %v", err, bad)
	}
	return out
}

// A daemon with [fleet] url: each winner is claimed fleet-wide before it is paid (DÉJÀ
// PAYÉ AILLEURS when another terminal holds it), journal records reach the JOURNAL stream;
// with the server out of reach, payouts within the offline limit are paid unconfirmed and
// claimed once it is back, above it refused; a status list the operator publishes is
// fetched, verified, installed and in force after the restart that takes it in.
func TestFleetOnBoard(t *testing.T) {
	tb := newTestBlock(t, 11)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	f := newTestFleet(t, tb, map[string]uint32{"T-1": 1, "T-2": 1})
	px := fleettest.NewProxy(t, f.srv.Addr().String())
	b.cfg.Fleet.URL, b.cfg.Fleet.Credentials = px.URL(), f.seeds["T-1"]
	b.cfg.Limits.OfflinePerTicket, b.cfg.Limits.OfflineTotal = 5_00, 5_00
	o := Options{RestartQuiet: 100 * time.Millisecond, FleetStatusEvery: 200 * time.Millisecond}
	d := b.start(t, o)
	if d.r.Fleet == nil {
		t.Fatal("no fleet client")
	}
	wait(t, "the fleet connection", d.r.Fleet.Online)
	d.scan(b, packCode(1), "PAQUET NON LIVRÉ") // no status list yet

	// The block has few winners above the offline limit: the one paid offline is set aside
	// first.
	big, bigCode := tb.winner(t, func(lot int64) bool { return lot > 5_00 && lot <= 150_00 })

	// Another terminal of the fleet paid this ticket first.
	other := otherTerminal(t, f, "T-2")
	taken, takenCode := tb.winner(t, func(lot int64) bool { return lot <= 150_00 })
	if _, err := other.Claim(context.Background(), codes.ValidationCodeOf(taken, tb.tickets[taken].Secret), int64(tb.tickets[taken].Lot)); err != nil {
		t.Fatal(err)
	}
	d.scan(b, takenCode, "GAGNANT")
	d.press(b, "PAYÉ AILLEURS", "T-2")

	online, onlineCode := tb.winner(t, func(lot int64) bool { return lot <= 150_00 })
	d.scan(b, onlineCode, "GAGNANT")
	d.press(b, "PAYÉ")
	if c, ok := f.claim(t, online); !ok || c.Terminal != "T-1" || c.Unconfirmed {
		t.Fatalf("online payout's claim: %+v %v", c, ok)
	}
	wait(t, "the payout in the JOURNAL stream", func() bool {
		for _, r := range f.published(t, "T-1") {
			if r.Kind == journal.KindPayout && r.Ticket == online {
				return true
			}
		}
		return false
	})

	// The server out of reach: within the offline limit paid unconfirmed, above refused;
	// within the limit but past the offline total of what is not yet claimed, refused.
	px.Block()
	wait(t, "the fleet connection lost", func() bool { return !d.r.Fleet.Online() })
	small, smallCode := tb.winner(t, func(lot int64) bool { return lot <= 5_00 })
	d.scan(b, smallCode, "GAGNANT")
	d.press(b, "PAYÉ")
	d.scan(b, bigCode, "GAGNANT")
	d.press(b, "RÉSEAU INJOIGNABLE", "NON PAYÉ")
	left := 5_00 - int64(tb.tickets[small].Lot)
	past, pastCode := tb.winner(t, func(lot int64) bool { return lot > left && lot <= 5_00 })
	d.scan(b, pastCode, "GAGNANT")
	d.press(b, "RÉSEAU INJOIGNABLE", "NON PAYÉ")
	if _, ok := f.claim(t, small); ok {
		t.Fatal("claimed while out of reach")
	}
	px.Heal()
	wait(t, "the offline payout claimed once the server is back", func() bool {
		c, ok := f.claim(t, small)
		return ok && c.Terminal == "T-1" && c.Unconfirmed
	})
	if _, ok := f.claim(t, big); ok {
		t.Fatal("a refused payout was claimed")
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(filepath.Join(b.cfg.DataDir, "journal"), journal.Options{Terminal: "T-1", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[codes.TicketID]string{taken: "", online: "confirmed", small: "unconfirmed", big: "", past: ""} {
		r, paid, _ := j.Paid(id)
		if got := map[bool]string{true: "unconfirmed", false: "confirmed"}[r.Unconfirmed()]; paid != (want != "") || (paid && got != want) {
			t.Errorf("ticket %v: paid %v (%s), want %q", id, paid, got, want)
		}
	}
	reasons := map[codes.TicketID]string{}
	j.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == journal.KindRefused {
			reasons[r.Ticket] = r.Reason
		}
		return nil
	})
	if reasons[big] != "fleet-offline" || reasons[past] != "offline-total" {
		t.Errorf("refusals journalled: above the limit %q, past the total %q", reasons[big], reasons[past])
	}
	j.Close()

	// The operator publishes the retailer's status list (posctl fleet publish-status).
	d = b.start(t, o)
	wait(t, "the fleet connection", d.r.Fleet.Online)
	list, err := os.ReadFile(tb.statusList(t, 1, 4))
	if err != nil {
		t.Fatal(err)
	}
	trust, _ := ledger.LoadTrustStore(tb.pub)
	if _, err := server.PublishStatus(context.Background(), f.stores, list, trust); err != nil {
		t.Fatal(err)
	}
	d.r.Fleet.Notify()
	if err := d.ended(20 * time.Second); !errors.Is(err, ErrRestart) {
		t.Fatalf("Run returned %v, want a restart for the status list", err)
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindStatusInstall] != 1 {
		t.Fatalf("status list install journalled: %v", k)
	}
	d = b.start(t, o)
	d.scan(b, packCode(1), "PRIX 10,00 €")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	if rs := f.published(t, "T-1"); kinds(rs)[journal.KindStatusInstall] != 1 {
		t.Fatalf("the install record was not published: %v", kinds(rs))
	}
}

// otherTerminal is a second terminal's fleet client (its own journal).
func otherTerminal(t *testing.T, f *testFleet, id string) *fleet.Client {
	t.Helper()
	c, _ := fleettest.Connect(t, fleet.Options{Terminal: id, URL: f.srv.URL(), Credentials: f.seeds[id]})
	wait(t, "the other terminal's connection", c.Online)
	return c
}
