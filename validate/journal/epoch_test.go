package journal

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func epochOf(t *testing.T, j *Journal) string {
	t.Helper()
	ep, err := j.Epoch()
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// The epoch is drawn when a journal is created, stays across restarts, and is new for a
// journal Reset started and for a data directory wiped and started as new.
func TestEpoch(t *testing.T) {
	f := newFixture(t)
	first := epochOf(t, f.j)
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(first) {
		t.Fatalf("epoch %q", first)
	}
	if _, ok, err := f.j.First(); ok || err != nil {
		t.Fatalf("first record of an empty journal: %v %v", ok, err)
	}
	r1 := f.append(t, payoutN(1))
	f.reopen(t)
	if ep := epochOf(t, f.j); ep != first {
		t.Fatalf("epoch after a restart %q, was %q", ep, first)
	}
	if r, ok, err := f.j.First(); !ok || err != nil || r.Hash != r1.Hash {
		t.Fatalf("first record %v %v %v", r, ok, err)
	}
	if again, err := f.j.StartedAfresh(); again || err != nil {
		t.Fatalf("a first start's journal started afresh: %v %v", again, err)
	}

	// The journal removed; the technician resets.
	f.j.Close()
	noErr(t, os.Remove(filepath.Join(f.dir, DBFile)))
	j, err := Open(f.dir, f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Epoch(); err == nil {
		t.Fatal("a refused journal has an epoch")
	}
	reset, err := j.Reset("technician test")
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	f.j = nil
	f.reopen(t)
	after := epochOf(t, f.j)
	if after == first || len(after) != 16 {
		t.Fatalf("epoch after the reset %q, before %q", after, first)
	}
	if r, ok, err := f.j.First(); !ok || err != nil || r.Seq != reset.Seq || r.Kind != KindReset {
		t.Fatalf("first record after the reset: %v %v %v", r, ok, err)
	}
	if again, err := f.j.StartedAfresh(); !again || err != nil {
		t.Fatalf("started afresh: %v %v", again, err)
	}
	f.append(t, payoutN(2))
	f.reopen(t)
	if ep := epochOf(t, f.j); ep != after {
		t.Fatalf("epoch of the reset journal changed: %q, was %q", ep, after)
	}

	// The whole directory wiped: a first start, with the same terminal id.
	g := newFixture(t)
	if ep := epochOf(t, g.j); ep == first || ep == after {
		t.Fatalf("a wiped terminal's new journal has an old epoch %q", ep)
	}
}

// A journal created before epochs were stored: its first record's id and hash, fixed once
// written; none while empty.
func TestEpochOfOlderJournal(t *testing.T) {
	f := newFixture(t)
	f.j.Close()
	dropEpoch(t, f.dir)
	f.reopen(t)
	if ep := epochOf(t, f.j); ep != "" {
		t.Fatalf("empty journal without a stored epoch: %q", ep)
	}
	r := f.append(t, payoutN(1))
	want := "T0042/1#" + hexPrefix(r.Hash)
	if ep := epochOf(t, f.j); ep != want {
		t.Fatalf("epoch %q, want %q", ep, want)
	}
	f.append(t, payoutN(2))
	f.reopen(t)
	if ep := epochOf(t, f.j); ep != want || len(ep) > MaxEpochLen {
		t.Fatalf("epoch %q after more records and a restart, want %q", ep, want)
	}
	// A stored epoch that is not one is a damaged journal.
	f.j.Close()
	db, err := bolt.Open(filepath.Join(f.dir, DBFile), 0o600, nil)
	noErr(t, err)
	noErr(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(kEpoch, []byte("x")) }))
	noErr(t, db.Close())
	f.reopen(t)
	if _, err := f.j.Epoch(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("malformed epoch: %v", err)
	}
}

func dropEpoch(t *testing.T, dir string) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, DBFile), 0o600, nil)
	noErr(t, err)
	noErr(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Delete(kEpoch) }))
	noErr(t, db.Close())
}

func hexPrefix(h [32]byte) string { return hex.EncodeToString(h[:4]) }

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkEpochAndFirst: what a claim adds on the terminal (device/fleet reads the epoch
// and the first record before each claim; the terminal asks StartedAfresh once more).
func BenchmarkEpochAndFirst(b *testing.B) {
	f := newFixture(b)
	for i := range 1000 {
		f.append(b, payoutN(i))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.j.Epoch(); err != nil {
			b.Fatal(err)
		}
		if _, _, err := f.j.First(); err != nil {
			b.Fatal(err)
		}
		if _, err := f.j.StartedAfresh(); err != nil {
			b.Fatal(err)
		}
	}
}
