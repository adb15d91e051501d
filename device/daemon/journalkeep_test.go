package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/internal/techcard"
	"github.com/packterm/pos/validate/journal"
)

// TestRetailerErasesJournal is the retailer's path 4 of issue 29: root on their own
// terminal, they remove journal.db, empty it, or remove it with the device key (the
// journal directory emptied), then scan a ticket the terminal already paid. posd must not
// start a new journal (it did, and paid the ticket again): it runs on refusing, says
// JOURNAL EFFACÉ, pays nothing and writes no journal; the technician's token then OK
// starts a new journal, the daemon restarts, and the new journal's first record says it
// was started afresh, after the old head, so record and receipt ids go on without
// colliding.
func TestRetailerErasesJournal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		erase  func(t *testing.T, dir string)
		reason string
	}{
		{"removed", func(t *testing.T, dir string) { must(t, os.Remove(filepath.Join(dir, journal.DBFile))) }, "missing"},
		{"emptied", func(t *testing.T, dir string) { must(t, os.Truncate(filepath.Join(dir, journal.DBFile), 0)) }, "emptied"},
		{"removed with the device key", func(t *testing.T, dir string) {
			for _, n := range []string{journal.DBFile, journal.DeviceKeyFile, journal.DevicePubFile, journal.HeadFile} {
				must(t, os.Remove(filepath.Join(dir, n)))
			}
		}, "missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTestBlock(t, 5)
			b := newBoard(t, tb)
			b.installLedger(t, tb)
			_, winner := tb.winner(t, func(lot int64) bool { return lot == 10_00 })
			_, other := tb.winner(t, func(lot int64) bool { return lot == 5_00 })
			d := b.start(t, Options{})
			d.scan(b, winner, "GAGNANT")
			d.press(b, "PAYÉ")
			receipts(t, b, 2)
			must(t, d.stop())
			old := records(t, b.cfg.DataDir)
			last := old[len(old)-1]

			jdir := filepath.Join(b.cfg.DataDir, "journal")
			tc.erase(t, jdir)
			d = b.start(t, Options{})
			d.expect("JOURNAL EFFACÉ")
			if d.r.Journal.Missing() == nil || d.r.Health.OK() {
				t.Fatalf("journal %v, healthy %v", d.r.Journal.Health(), d.r.Health.OK())
			}
			b.sc.Scan(context.Background(), winner, "") // the retailer tries the paid ticket again: not judged, no guess at the token
			time.Sleep(300 * time.Millisecond)
			d.expect("TERMINAL VERROUILLÉ", "CODE IGNORÉ")
			b.ok.Press()
			time.Sleep(100 * time.Millisecond)
			b.ok.Release()
			d.expect("TERMINAL VERROUILLÉ")
			if n := receipts(t, b, 0); n != 2 {
				t.Fatalf("%d receipts printed, want the first payout's 2 only", n)
			}
			if st, err := os.Stat(filepath.Join(jdir, journal.DBFile)); err == nil && st.Size() > 0 {
				t.Fatal("a new journal was written while refused")
			}

			// The technician: their card's token, then OK.
			card, err := techcard.Encode([]byte(testToken))
			must(t, err)
			d.scan(b, card, "NOUVEAU JOURNAL")
			d.press(b, "REDÉMARRAGE")
			var re *RestartError
			if err := d.ended(20 * time.Second); !errors.As(err, &re) {
				t.Fatalf("no restart after the reset: %v", err)
			}
			d = b.start(t, Options{})
			d.expect("SCANNEZ UN CODE")
			d.scan(b, other, "GAGNANT")
			d.press(b, "PAYÉ")
			receipts(t, b, 4)
			must(t, d.stop())
			rs := records(t, b.cfg.DataDir)
			first := rs[0]
			if first.Kind != journal.KindReset || first.Seq != last.Seq+1 || first.Reason != tc.reason ||
				!strings.Contains(first.Detail, "technician") {
				t.Fatalf("first record of the new journal: %v", first)
			}
			if tc.name != "removed with the device key" && first.Prev != last.Hash {
				t.Errorf("the reset record is not chained to the old head")
			}
			pay := rs[len(rs)-1]
			if pay.Kind != journal.KindPayout || pay.Seq != last.Seq+2 {
				t.Fatalf("payout after the reset: %v", pay)
			}
			for _, id := range pay.Receipts {
				for _, o := range old {
					for _, oid := range o.Receipts {
						if id == oid {
							t.Errorf("receipt id %s used by the old journal too", id)
						}
					}
				}
			}
		})
	}
}

// receipts waits for n receipts and returns how many were printed (n = 0: after a
// short wait, how many there are).
func receipts(t *testing.T, b *testBoard, n int) int {
	t.Helper()
	if n == 0 {
		time.Sleep(300 * time.Millisecond)
		return len(b.pr.Printer.Receipts())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rs, err := b.pr.WaitReceipts(ctx, n)
	if len(rs) < n {
		t.Fatalf("%v (%d receipts, want %d)", err, len(rs), n)
	}
	return len(rs)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
