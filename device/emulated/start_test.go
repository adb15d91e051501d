package emulated

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// TestStartReadsIndexesNotEveryRecord: the start takes the terminal's state (here a tamper
// lock never unlocked, recorded before the journal's last checkpoint) from the journal's
// indexes, not from a walk of every record. Record 1 is damaged: Open checks from the last
// checkpoint on and does not read it (the full verify does), and neither does the start.
// Before, the start walked the whole journal, stopped at record 1 and came up unlocked.
func TestStartReadsIndexesNotEveryRecord(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	day := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	clock := clockwork.NewFakeClockAt(day)
	j, err := journal.Open(filepath.Join(dir, "journal"), journal.Options{Terminal: "EMU-0001", Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	payout := func(i int) journal.Entry {
		id := codes.TicketID{Block: 7, Pack: uint32(i), Position: 1}
		return journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: 1, Amount: 500,
			Code: codes.ValidationCodeOf(id, [codes.SecretSize]byte{byte(i), 1}), Receipts: []string{"J", "C"}}
	}
	es := []journal.Entry{payout(0), {Kind: journal.KindTamper, Reason: "case-opened"}}
	for i := 1; i <= 20; i++ {
		es = append(es, payout(i))
	}
	if err := j.AppendBatch(es); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	j.Close()
	db, err := bolt.Open(filepath.Join(dir, "journal", journal.DBFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { // a bit of record 1's time flipped
		b := tx.Bucket([]byte("records"))
		k := []byte{0, 0, 0, 0, 0, 0, 0, 1}
		v := append([]byte(nil), b.Get(k)...)
		v[30] ^= 1
		return b.Put(k, v)
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.MkdirAll(filepath.Join(dir, "state"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "state", "done.seq"), []byte("22\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	e := rigOn(t, tb, Options{Dir: dir, Clock: clock})
	defer e.rig.Close()
	if err := e.rig.Journal.Health(); err != nil {
		t.Fatalf("the damage before the checkpoint is for the full verify, not Open: %v", err)
	}
	e.expect("TERMINAL BLOQUÉ")
}
