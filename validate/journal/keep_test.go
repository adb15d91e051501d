package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecide: a new journal only when no evidence at all says there was one.
func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   []Evidence
		want Decision
	}{
		{"first start", nil, Fresh},
		{"device key", []Evidence{{What: DeviceKeyFile}}, Refuse},
		{"device pub", []Evidence{{What: DevicePubFile}}, Refuse},
		{"head marker", []Evidence{{What: "journal/journal.head (record 7)", Seq: 7, HasHash: true}}, Refuse},
		{"damaged marker", []Evidence{{What: "state/journal.head (damaged)"}}, Refuse},
		{"state", []Evidence{{What: "state/done.seq (record 4)", Seq: 4}}, Refuse},
		{"spool", []Evidence{{What: "spool (2 receipts)"}}, Refuse},
		{"fleet", []Evidence{{What: "state/fleet-state.json (record 9)", Seq: 9}}, Refuse},
	} {
		if got := Decide(tc.ev); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestLastSeen(t *testing.T) {
	h := [32]byte{1}
	seq, hash, ok := LastSeen([]Evidence{{Seq: 4}, {Seq: 9, Hash: h, HasHash: true}, {Seq: 9}, {What: "device.key"}})
	if seq != 9 || hash != h || !ok {
		t.Fatalf("LastSeen = %d %x %v", seq, hash[:4], ok)
	}
	seq, _, ok = LastSeen([]Evidence{{Seq: 12}, {Seq: 9, Hash: h, HasHash: true}})
	if seq != 12 || ok {
		t.Fatalf("a later record without its hash: %d %v", seq, ok)
	}
}

// TestFirstStartFresh: an empty directory is a first start.
func TestFirstStartFresh(t *testing.T) {
	f := newFixture(t)
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	f.append(t, payoutN(1))
	h, err := ParseHead(mustRead(t, filepath.Join(f.dir, HeadFile)))
	if err != nil || h.Seq != 1 || h.Terminal != "T0042" {
		t.Fatalf("head marker after one append (no close): %+v %v", h, err)
	}
}

// paidJournal is a journal with 3 payouts, closed; it returns the head.
func paidJournal(t *testing.T, f *fixture) (uint64, [32]byte) {
	t.Helper()
	for i := range 3 {
		f.append(t, payoutN(10+i))
	}
	seq, hash := f.j.Head()
	f.j.Close()
	return seq, hash
}

// refusedOpen opens f.dir expecting a refused journal that pays nothing and wrote
// nothing.
func refusedOpen(t *testing.T, f *fixture, o Options) *Journal {
	t.Helper()
	before := listDir(t, f.dir)
	j, err := Open(f.dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(j.Health(), ErrMissing) || j.Missing() == nil {
		j.Close()
		t.Fatalf("health %v, want ErrMissing (a new journal was started silently)", j.Health())
	}
	if _, err := j.Append(payoutN(0)); !errors.Is(err, ErrReadOnly) {
		t.Errorf("payout of an already paid ticket on a refused journal: %v", err)
	}
	if after := listDir(t, f.dir); after != before {
		t.Errorf("a refused open wrote: %s -> %s", before, after)
	}
	return j
}

// resetAndCheck resets j, then opens the new journal: its first record is the reset,
// after the old head; a payout is taken again.
func resetAndCheck(t *testing.T, f *fixture, j *Journal, o Options, oldSeq uint64, oldHash [32]byte, hashKnown bool, reason string) {
	t.Helper()
	r, err := j.Reset("technician test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Reset("again"); err == nil {
		t.Error("second Reset accepted")
	}
	j.Close()
	if r.Kind != KindReset || r.Seq != oldSeq+1 || r.Reason != reason || !strings.Contains(r.Detail, "started afresh by technician test") {
		t.Fatalf("reset record %d %v %q %q", r.Seq, r.Kind, r.Reason, r.Detail)
	}
	if hashKnown && r.Prev != oldHash {
		t.Errorf("reset record not chained to the old head")
	}
	nj, err := Open(f.dir, o)
	if err != nil {
		t.Fatal(err)
	}
	defer nj.Close()
	if err := nj.Health(); err != nil {
		t.Fatal(err)
	}
	if s, _ := nj.Head(); s != oldSeq+1 {
		t.Fatalf("new journal head %d, want %d", s, oldSeq+1)
	}
	p, err := nj.Append(payoutN(50))
	if err != nil || p.Seq != oldSeq+2 {
		t.Fatalf("payout after reset: %v seq %d", err, p.Seq)
	}
	if rep, err := nj.Verify(); err != nil || rep.Records != 2 {
		t.Fatalf("verify after reset: %v %+v", err, rep)
	}
	var first Record
	nj.Each(testStart.AddDate(-1, 0, 0), func(r Record) error {
		if first.Seq == 0 {
			first = r
		}
		return nil
	})
	if first.Kind != KindReset {
		t.Errorf("first record of the new journal: %v", first.Kind)
	}
}

// TestRemovedJournalRefused: the retailer (root) removes journal.db; the device key and
// the head marker say there was one.
func TestRemovedJournalRefused(t *testing.T) {
	f := newFixture(t)
	seq, hash := paidJournal(t, f)
	os.Remove(filepath.Join(f.dir, DBFile))
	j := refusedOpen(t, f, f.opts())
	if me := j.Missing(); me.Cause != "missing" || len(me.Evidence) < 3 {
		t.Errorf("missing: %+v", me)
	}
	resetAndCheck(t, f, j, f.opts(), seq, hash, true, "missing")
}

// TestEmptiedJournalRefused: journal.db truncated to 0 bytes.
func TestEmptiedJournalRefused(t *testing.T) {
	f := newFixture(t)
	seq, hash := paidJournal(t, f)
	if err := os.Truncate(filepath.Join(f.dir, DBFile), 0); err != nil {
		t.Fatal(err)
	}
	j := refusedOpen(t, f, f.opts())
	resetAndCheck(t, f, j, f.opts(), seq, hash, true, "emptied")
	if m, _ := filepath.Glob(filepath.Join(f.dir, DBFile+".replaced-*")); len(m) != 1 {
		t.Errorf("the emptied file was not kept aside: %v", m)
	}
}

// TestJournalAndKeyRemovedRefused: journal.db, device.key, device.pub and the marker
// beside them removed (the journal directory emptied); the marker copy outside it says
// there was one. With that gone too, nothing is left: a first start (the fleet sees the
// fork, see docs/journal.md).
func TestJournalAndKeyRemovedRefused(t *testing.T) {
	f := newFixture(t)
	copyPath := filepath.Join(t.TempDir(), HeadFile)
	o := f.opts()
	o.HeadCopies = []string{copyPath}
	f.j.Close()
	j, err := Open(f.dir, o)
	if err != nil {
		t.Fatal(err)
	}
	f.j = j
	seq, hash := paidJournal(t, f)
	for _, n := range []string{DBFile, DeviceKeyFile, DevicePubFile, HeadFile} {
		os.Remove(filepath.Join(f.dir, n))
	}
	j = refusedOpen(t, f, o)
	resetAndCheck(t, f, j, o, seq, hash, true, "missing")

	d := t.TempDir()
	j, err = Open(d, Options{Terminal: "T0042", Clock: f.clock, HeadCopies: []string{filepath.Join(d, "none", HeadFile)}})
	if err != nil || j.Health() != nil {
		t.Fatalf("nothing left: want a first start, got %v %v", err, j.Health())
	}
	j.Close()
}

// TestWitnessRefuses: the caller's witness alone (state, spool, fleet) is enough.
func TestWitnessRefuses(t *testing.T) {
	f := newFixture(t)
	f.j.Close()
	for _, n := range []string{DBFile, DeviceKeyFile, DevicePubFile, HeadFile} {
		os.Remove(filepath.Join(f.dir, n))
	}
	o := f.opts()
	o.Witness = func() []Evidence { return []Evidence{{What: "state/done.seq (record 17)", Seq: 17}} }
	j := refusedOpen(t, f, o)
	resetAndCheck(t, f, j, o, 17, [32]byte{}, false, "missing")
}

// TestOlderCopyRefused: the retailer puts back an older copy of journal.db (before a
// payout) to pay the ticket again: the head marker is ahead of it.
func TestOlderCopyRefused(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(0))
	f.j.Close()
	old := mustRead(t, filepath.Join(f.dir, DBFile))
	f.reopen(t)
	seq, hash := paidJournal(t, f)
	if err := os.WriteFile(filepath.Join(f.dir, DBFile), old, 0o600); err != nil {
		t.Fatal(err)
	}
	j := refusedOpen(t, f, f.opts())
	if me := j.Missing(); me.Cause != "older" {
		t.Fatalf("cause %q", me.Cause)
	}
	resetAndCheck(t, f, j, f.opts(), seq, hash, true, "older")
}

// TestResetHealthyRefused: Reset is only for a refused journal.
func TestResetHealthyRefused(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(1))
	if _, err := f.j.Reset("someone"); !errors.Is(err, ErrNotRefused) {
		t.Fatalf("reset of a healthy journal: %v", err)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func listDir(t *testing.T, dir string) string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var s []string
	for _, e := range ents {
		fi, _ := e.Info()
		s = append(s, e.Name()+":"+fi.ModTime().String())
	}
	return strings.Join(s, ",")
}
