package journal

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestTornLastTransaction damages the newest meta page, as a power cut in the middle of
// bbolt's meta write leaves it: Open falls back to the previous transaction (the record
// being written was never acknowledged), reports it, and the next commit repairs it.
func TestTornLastTransaction(t *testing.T) {
	f := build(t, 10, 0)
	path := filepath.Join(f.dir, DBFile)
	b, _ := os.ReadFile(path)
	psz := os.Getpagesize()
	m0, m1 := parseMeta(b), parseMeta(b[psz:])
	newest := 0
	if m1.txid > m0.txid {
		newest = 1
	}
	b[newest*psz+pageHeader+56] ^= 0xff // its checksum
	os.WriteFile(path, b, 0o600)
	f.j = nil
	f.reopen(t)
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	if f.j.Repaired() == "" {
		t.Fatal("fallback not reported")
	}
	if seq, _ := f.j.Head(); seq != 9 { // record 10 was the torn transaction
		t.Fatalf("head %d after the fallback", seq)
	}
	// The open itself committed (boot counter): the bad meta page is rewritten.
	f.reopen(t)
	if f.j.Repaired() != "" {
		t.Fatalf("still repaired on the second open: %s", f.j.Repaired())
	}
	if _, err := f.j.Verify(); err != nil {
		t.Fatal(err)
	}
}

func TestBothMetaPagesBad(t *testing.T) {
	f := build(t, 3, 0)
	path := filepath.Join(f.dir, DBFile)
	b, _ := os.ReadFile(path)
	psz := os.Getpagesize()
	binary.LittleEndian.PutUint32(b[pageHeader:], 1)
	binary.LittleEndian.PutUint32(b[psz+pageHeader:], 1)
	os.WriteFile(path, b, 0o600)
	f.j = nil
	f.reopen(t)
	wantCorruptAt(t, f.j.Health(), 0)
	if _, err := f.j.Append(payoutN(50)); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("append: %v", err)
	}
	if _, _, err := f.j.Paid(ticketN(1)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("paid on an unreadable file: %v", err)
	}
}

// TestReadOnlyWhileInUse reads a journal that a terminal holds open: the read-only open
// works on a private copy and sees every record.
func TestReadOnlyWhileInUse(t *testing.T) {
	f := newFixture(t)
	for i := range 20 {
		f.append(t, payoutN(i))
	}
	ro, err := Open(f.dir, Options{ReadOnly: true, lockTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if ro.Snapshot().IsZero() || ro.Health() != nil {
		t.Fatalf("snapshot %v, health %v", ro.Snapshot(), ro.Health())
	}
	rep, err := ro.Verify()
	if err != nil || rep.Records != 20 {
		t.Fatalf("verify of the copy: %v %v", rep, err)
	}
	tmp := ro.tmpDir
	ro.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("copy left behind: %v", err)
	}
	f.append(t, payoutN(20)) // the terminal's journal is untouched and still writable
	if _, err := Open(f.dir, Options{Terminal: "T0042", lockTimeout: time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Fatalf("second writer: %v", err)
	}
}

func TestReadOnlyOtherTerminal(t *testing.T) {
	f := build(t, 2, 0)
	if _, err := Open(f.dir, Options{ReadOnly: true, Terminal: "OTHER"}); err == nil || errors.Is(err, ErrCorrupt) {
		t.Fatalf("read-only open as another terminal: %v", err)
	}
}

// TestConcurrentUse appends from several goroutines while others look up: sequence
// numbers stay dense, no payout is lost or doubled (run with -race).
func TestConcurrentUse(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 15 {
				if _, err := f.j.Append(payoutN(g*100 + i)); err != nil {
					t.Error(err)
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := range 15 {
				f.j.Paid(ticketN(g*100 + i))
				f.j.Head()
				f.j.Last()
			}
		}()
	}
	wg.Wait()
	rep, err := f.j.Verify()
	if err != nil || rep.Records != 60 || rep.Payouts != 60 {
		t.Fatalf("%v %v", rep, err)
	}
}
