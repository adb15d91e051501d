package emulated

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/journal"
)

// TestUnhealthyJournalShowsAtRest: a journal in its no-payout state (a record changed on
// disk while the terminal was off) is shown at rest, JOURNAL EN DÉFAUT / PAIEMENTS
// BLOQUÉS, not SCANNEZ UN CODE (before, the retailer saw an idle terminal and learned of
// the fault only by a refused operation); a winner scanned is still not paid.
func TestUnhealthyJournalShowsAtRest(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	day := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	e := rigOn(t, tb, Options{Dir: dir, AllDelivered: true, PerTicket: 20_00, Clock: clockwork.NewFakeClockAt(day)})
	e.do(tb.code(five), "!ok")
	e.expect("PAYÉ")
	if err := e.rig.Close(); err != nil {
		t.Fatal(err)
	}
	// The retailer changes the last record's bytes.
	db, err := bolt.Open(filepath.Join(dir, "journal", journal.DBFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("records"))
		k, v := b.Cursor().Last()
		v = append([]byte(nil), v...)
		v[len(v)/2] ^= 1
		return b.Put(append([]byte(nil), k...), v)
	})
	if err := errorsJoin(err, db.Close()); err != nil {
		t.Fatal(err)
	}

	clock := clockwork.NewFakeClockAt(day.Add(time.Hour))
	e = rigOn(t, tb, Options{Dir: dir, PerTicket: 20_00, Clock: clock})
	defer e.rig.Close()
	if e.rig.Journal.Health() == nil {
		t.Fatal("the changed journal is healthy")
	}
	e.expect("JOURNAL EN DÉFAUT", "PAIEMENTS BLOQUÉS")
	head, _ := e.rig.Journal.Head()
	other := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID != five })
	e.do(tb.code(other), "!ok")
	clock.Advance(21 * time.Second) // the answer times out: at rest again
	e.waitScreen("JOURNAL EN DÉFAUT")
	if now, _ := e.rig.Journal.Head(); now != head {
		t.Errorf("records %d to %d written on an unhealthy journal", head+1, now)
	}
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
