package journal

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/ledger"
)

// The insider's tests of the unsigned window (issue 29, path 5): a retailer with root on
// their own terminal edits journal.db with bbolt, the way a thorough attacker would: the
// record changed, every later record re-chained to it, the stored head moved and the
// day's totals recomputed, so that the chain of hashes is whole again.

// rechain changes record seq with fn, then re-seals it and every later record (Prev set to
// the new hash before), moves the head and recomputes every day's totals. sign re-signs a
// record (nil: the attacker has no key; the old signature bytes stay, sealed as they are).
func rechain(seq uint64, fn func(*Record), sign func(*Record) []byte) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		b := tx.Bucket(bRecords)
		c := b.Cursor()
		_, prev, err := readBase(tx.Bucket(bMeta)) // zero, or a reset journal's base
		if err != nil {
			return err
		}
		var head uint64
		days := map[string]*DayTotals{}
		type put struct {
			k, v []byte
		}
		var puts []put
		for k, v := c.First(); k != nil; k, v = c.Next() {
			r, err := DecodeRecord(v)
			if err != nil {
				return err
			}
			if r.Seq == seq {
				fn(&r)
			}
			if r.Seq >= seq {
				r.Prev = prev
				enc := seal(&r)
				if sign != nil {
					enc = sign(&r)
				}
				puts = append(puts, put{append([]byte(nil), k...), enc})
			}
			if counts(r.Kind) {
				if days[r.day()] == nil {
					days[r.day()] = &DayTotals{Day: r.day()}
				}
				days[r.day()].add(&r)
			}
			prev, head = r.Hash, r.Seq
		}
		for _, p := range puts {
			if err := b.Put(p.k, p.v); err != nil {
				return err
			}
		}
		for d, t := range days {
			if err := tx.Bucket(bDays).Put([]byte(d), t.appendBinary(nil)); err != nil {
				return err
			}
		}
		return putHead(tx, head, prev)
	}
}

// TestRetailerRechainedPayoutEdit: the retailer raises the amount of payout 30 (after the
// last checkpoint, at record 20) and re-chains every record after it, without the device
// key. The terminal refuses to pay on it, and verify with the terminal's key names record
// 30. (Before records were signed, both passed: only checkpoints were signed.)
func TestRetailerRechainedPayoutEdit(t *testing.T) {
	f := build(t, 40, 20)
	pub := f.pubKey(t)
	tamper(t, f.dir, rechain(30, func(r *Record) { r.Amount = 15000 }, nil))

	f.j = nil
	f.reopen(t) // the terminal starts again on the edited journal
	wantCorruptAt(t, f.j.Health(), 30)
	f.j.Close()

	ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Verify()
	if ro.Health() != nil {
		err = ro.Health()
	}
	wantCorruptAt(t, err, 30)
}

// TestRetailerRechainedEditBeforeCheckpoint: the same edit before the last checkpoint,
// with the checkpoints left as they were: verify still names the record, not the
// checkpoint after it.
func TestRetailerRechainedEditBeforeCheckpoint(t *testing.T) {
	f := build(t, 40, 35)
	pub := f.pubKey(t)
	tamper(t, f.dir, rechain(12, func(r *Record) { r.Amount = 15000 }, nil))
	ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	wantCorruptAt(t, ro.Health(), 35) // Open checks from the last checkpoint: it no longer matches
	_, err = ro.Verify()              // the whole journal: the first bad record
	wantCorruptAt(t, err, 12)
}

// TestRetailerReplacesDeviceKeyAndResigns: the retailer makes their own key, writes it as
// device.pub (and device.key), edits payout 30, re-chains, and re-signs every record and
// every checkpoint with it. Without a trusted key verify cannot tell: it is not "ok", it
// says the key was found next to the journal. With the terminal's real key (kept apart),
// the signatures are refused from the first record on, naming the key that made them.
func TestRetailerReplacesDeviceKeyAndResigns(t *testing.T) {
	f := build(t, 40, 20)
	real := f.pubKey(t)
	_, evil, _ := ed25519.GenerateKey(nil)
	evilPub := evil.Public().(ed25519.PublicKey)
	resign := func(r *Record) []byte { return sealSigned(evil, ledger.IDOf(evilPub), r) }
	tamper(t, f.dir, rechain(1, func(*Record) {}, resign))
	tamper(t, f.dir, rechain(30, func(r *Record) { r.Amount = 15000 }, resign))
	tamper(t, f.dir, resignCheckpoints(evil))
	writeKeys(t, f.dir, evil)

	ro, err := Open(f.dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ro.Verify()
	ro.Close()
	if err != nil || ro.Health() != nil {
		t.Fatalf("the re-signed journal should be intact under its own key: %v %v", err, ro.Health())
	}
	if rep.KeyTrusted || !errors.Is(rep.Vouched(), ErrUnvouched) || !strings.Contains(rep.Vouched().Error(), "not a trusted key") {
		t.Fatalf("verify without a trusted key vouched for the journal: %+v %v", rep, rep.Vouched())
	}

	ro, err = Open(f.dir, Options{ReadOnly: true, PublicKey: real})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	wantCorruptAt(t, ro.Health(), 20) // Open checks from the last checkpoint: not signed by this key
	_, err = ro.Verify()
	wantCorruptAt(t, err, 1)
	if !strings.Contains(err.Error(), "signed by key "+ledger.IDOf(evilPub).String()) {
		t.Fatalf("verify does not name the key that signed: %v", err)
	}
}

// TestRetailerResignsOnlyTheEditedTail: the retailer re-signs with their own key only the
// records from the edited one on (the rest keeps the terminal's signatures): with the
// terminal's key, verify names the edited record.
func TestRetailerResignsOnlyTheEditedTail(t *testing.T) {
	f := build(t, 40, 20)
	real := f.pubKey(t)
	_, evil, _ := ed25519.GenerateKey(nil)
	resign := func(r *Record) []byte { return sealSigned(evil, ledger.IDOf(evil.Public().(ed25519.PublicKey)), r) }
	tamper(t, f.dir, rechain(30, func(r *Record) { r.Amount = 15000 }, resign))
	ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: real})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	wantCorruptAt(t, ro.Health(), 30)
	_, err = ro.Verify()
	wantCorruptAt(t, err, 30)
}

// TestDowngradeToUnsignedRefused: the retailer rewrites payout 30 and every later record
// in the old, unsigned encoding (version 1), so that no signature is there to fail. An
// unsigned record after signed ones is refused, and named.
func TestDowngradeToUnsignedRefused(t *testing.T) {
	f := build(t, 40, 20)
	pub := f.pubKey(t)
	tamper(t, f.dir, rechain(30, func(r *Record) { r.Amount = 15000 }, func(r *Record) []byte {
		r.Version, r.Key, r.Sig = RecordVersionUnsigned, ledger.KeyID{}, [64]byte{}
		return seal(r)
	}))
	f.j = nil
	f.reopen(t)
	wantCorruptAt(t, f.j.Health(), 30)
	f.j.Close()
	ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Verify()
	wantCorruptAt(t, err, 30)
	if !strings.Contains(err.Error(), "unsigned record") {
		t.Fatalf("reason: %v", err)
	}
}

// pubKey is the terminal's device public key, as the operator keeps it apart.
func (f *fixture) pubKey(t *testing.T) ed25519.PublicKey {
	t.Helper()
	pub, err := ledger.LoadPublicKey(filepath.Join(f.dir, DevicePubFile))
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// resignCheckpoints signs every checkpoint again with key (its id in them too).
func resignCheckpoints(key ed25519.PrivateKey) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		b := tx.Bucket(bCheckpoints)
		type put struct{ k, v []byte }
		var puts []put
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			cp, err := DecodeCheckpoint(v)
			if err != nil {
				return err
			}
			cp.Key = ledger.IDOf(key.Public().(ed25519.PublicKey))
			copy(cp.Sig[:], ed25519.Sign(key, cp.signed()))
			enc, _ := cp.MarshalBinary()
			puts = append(puts, put{append([]byte(nil), k...), enc})
		}
		for _, p := range puts {
			if err := b.Put(p.k, p.v); err != nil {
				return err
			}
		}
		return nil
	}
}

// writeKeys replaces device.key and device.pub with key.
func writeKeys(t *testing.T, dir string, key ed25519.PrivateKey) {
	t.Helper()
	pub := key.Public().(ed25519.PublicKey)
	if err := os.WriteFile(filepath.Join(dir, DeviceKeyFile), ledger.MarshalPrivateKey(key, "device T0042"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, DevicePubFile), ledger.MarshalPublicKey(pub, "device T0042"), 0o644); err != nil {
		t.Fatal(err)
	}
}
