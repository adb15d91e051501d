package journal

import (
	"crypto/ed25519"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/ledger"
)

// build makes a journal of n payouts with a checkpoint after record cpAt (0: none), closed.
func build(t testing.TB, n, cpAt int) *fixture {
	t.Helper()
	f := newFixture(t)
	for i := range n {
		f.append(t, payoutN(i))
		if i+1 == cpAt {
			if _, err := f.j.Checkpoint(); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.j.Close()
	return f
}

// tamper changes the stored bytes of a journal directly, as an attacker with the file would.
func tamper(t *testing.T, dir string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, DBFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// resealed rewrites record seq with fn applied, keeping it self-consistent (own hash).
func resealed(seq uint64, fn func(r *Record)) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		b := tx.Bucket(bRecords)
		r, err := DecodeRecord(b.Get(be64(seq)))
		if err != nil {
			return err
		}
		fn(&r)
		return b.Put(be64(seq), seal(&r))
	}
}

func wantCorruptAt(t *testing.T, err error, seq uint64) {
	t.Helper()
	var ce *CorruptError
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.Seq != seq {
		t.Fatalf("error %v, want corruption at record %d", err, seq)
	}
}

func TestChainBreakAfterCheckpointBlocksPayouts(t *testing.T) {
	f := build(t, 40, 20)
	tamper(t, f.dir, resealed(30, func(r *Record) { r.Amount = 999999 }))
	before := fileSum(t, f.dir)
	f.j = nil
	f.reopen(t)
	wantCorruptAt(t, f.j.Health(), 30) // record 30 re-sealed: its signature no longer holds (and 31 no longer chains to it)
	if fileSum(t, f.dir) != before {
		t.Fatal("opening a damaged journal wrote to it")
	}
	if _, err := f.j.Append(payoutN(100)); !errors.Is(err, ErrReadOnly) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("append in no-payout state: %v", err)
	}
	if _, err := f.j.Checkpoint(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("checkpoint in no-payout state: %v", err)
	}
	// Paid still answers (for the display), the state stays.
	if _, ok, err := f.j.Paid(ticketN(3)); !ok || err != nil {
		t.Fatalf("paid in no-payout state: %v %v", ok, err)
	}
}

func TestUnsealedRecordAfterCheckpoint(t *testing.T) {
	f := build(t, 40, 20)
	tamper(t, f.dir, func(tx *bolt.Tx) error {
		b := tx.Bucket(bRecords)
		v := append([]byte(nil), b.Get(be64(25))...)
		v[len(v)-sigTrailer-40] ^= 1 // inside prev
		return b.Put(be64(25), v)
	})
	f.j = nil
	f.reopen(t)
	wantCorruptAt(t, f.j.Health(), 25)
}

func TestDamageBeforeCheckpointFoundByVerify(t *testing.T) {
	for name, fn := range map[string]func(tx *bolt.Tx) error{
		"record":         resealed(10, func(r *Record) { r.Amount = 1 }),
		"deleted record": func(tx *bolt.Tx) error { return tx.Bucket(bRecords).Delete(be64(10)) },
		"paid index":     func(tx *bolt.Tx) error { return tx.Bucket(bPaid).Delete(ticketKey(ticketN(9))) },
		"days":           func(tx *bolt.Tx) error { return tx.Bucket(bDays).Put([]byte("2026-12-02"), make([]byte, totalsSize)) },
		"checkpoint": func(tx *bolt.Tx) error {
			b := tx.Bucket(bCheckpoints)
			k, v := b.Cursor().First()
			v = append([]byte(nil), v...)
			v[3] ^= 1
			return b.Put(append([]byte(nil), k...), v)
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := build(t, 40, 20)
			tamper(t, f.dir, fn)
			f.j = nil
			f.reopen(t)
			if name == "checkpoint" {
				wantCorruptAt(t, f.j.Health(), 20)
				return
			}
			if err := f.j.Health(); err != nil {
				t.Fatalf("open checks from the checkpoint only, got %v", err)
			}
			_, err := f.j.Verify()
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("verify: %v", err)
			}
			if name == "record" || name == "deleted record" {
				var ce *CorruptError
				if errors.As(err, &ce); ce.Seq != 10 && ce.Seq != 11 {
					t.Fatalf("first bad record %d, want 10 or 11", ce.Seq)
				}
			}
		})
	}
}

func TestForeignDeviceKeyRefused(t *testing.T) {
	f := build(t, 10, 5)
	_, other, _ := ed25519.GenerateKey(nil)
	j, err := Open(f.dir, Options{Terminal: "T0042", Clock: f.clock, DeviceKey: other})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	wantCorruptAt(t, j.Health(), 5)
}

// TestByteFlips flips bytes of a copy of a real journal file: page headers, meta pages,
// keys, values, the chain. Open must never panic; each flip is either detected (Open
// fails, Health or Verify report corruption), or repaired by the meta-page fallback, or
// it hit bytes that hold nothing (free space), in which case every record is intact.
func TestByteFlips(t *testing.T) {
	f := build(t, 300, 150)
	orig, err := os.ReadFile(filepath.Join(f.dir, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64][32]byte{}
	type signature struct {
		key ledger.KeyID
		sig [64]byte
	}
	sigs := map[uint64]signature{}
	ro, err := Open(f.dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro.Each(timeZero, func(r Record) error { want[r.Seq], sigs[r.Seq] = r.Hash, signature{r.Key, r.Sig}; return nil })
	ro.Close()
	key, _ := os.ReadFile(filepath.Join(f.dir, DeviceKeyFile))
	pub, _ := os.ReadFile(filepath.Join(f.dir, DevicePubFile))

	psz := os.Getpagesize()
	var offsets []int
	for p := 0; p*psz < len(orig); p++ { // every page header and meta field
		for _, o := range []int{0, 8, 10, 12, 16, 24, 32, 40, 48, 56, 64} {
			offsets = append(offsets, p*psz+o)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := 400
	if testing.Short() || raceEnabled { // under qemu and -race: every third page's header and fewer random offsets
		var some []int
		for i, o := range offsets {
			if (i/11)%3 == 0 {
				some = append(some, o)
			}
		}
		offsets, random = some, 100
	}
	for range random {
		offsets = append(offsets, rng.IntN(len(orig)))
	}
	var detected, repaired, harmless, sigOnly int
	dir := t.TempDir()
	for _, off := range offsets {
		b := append([]byte(nil), orig...)
		b[off] ^= byte(1 << rng.IntN(8))
		os.WriteFile(filepath.Join(dir, DBFile), b, 0o600)
		os.WriteFile(filepath.Join(dir, DeviceKeyFile), key, 0o600)
		os.WriteFile(filepath.Join(dir, DevicePubFile), pub, 0o644)
		j, err := Open(dir, Options{Terminal: "T0042", Clock: f.clock})
		if err != nil {
			detected++
			continue
		}
		switch _, verr := j.Verify(); {
		case j.Health() != nil || verr != nil:
			detected++
		case j.Repaired() != "":
			// The fallback keeps the previous transaction: at most the last record is gone.
			if seq, _ := j.Head(); seq+1 < uint64(len(want)) {
				t.Errorf("flip at %d: meta fallback kept %d records of %d", off, seq, len(want))
			}
			repaired++
		default:
			n, sig := 0, false
			err := j.Each(timeZero, func(r Record) error {
				if want[r.Seq] != r.Hash {
					t.Errorf("flip at %d: record %d changed and nothing noticed", off, r.Seq)
				}
				if sigs[r.Seq] != (signature{r.Key, r.Sig}) {
					if r.Seq == uint64(len(want)) {
						t.Errorf("flip at %d: the last record's signature changed and nothing noticed", off)
					}
					sig = true // content vouched for by a later signature (docs/journal.md, "Signed records")
				}
				n++
				return nil
			})
			if err != nil || n != len(want) {
				t.Errorf("flip at %d: %d records of %d (%v) and nothing noticed", off, n, len(want), err)
			}
			if sig {
				sigOnly++
			} else {
				harmless++
			}
		}
		j.Close()
	}
	t.Logf("%d flips: %d detected, %d repaired by meta fallback, %d in a signature a later one vouches for, %d in unused bytes",
		len(offsets), detected, repaired, sigOnly, harmless)
	if detected < len(offsets)/4 {
		t.Fatalf("only %d of %d flips detected", detected, len(offsets))
	}
}

var timeZero time.Time
