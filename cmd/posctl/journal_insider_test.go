package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// The retailer's tests of the unsigned window (issue 29, path 5): root on their own
// terminal, the journal's documented format (docs/journal.md), bbolt, and no device key.

// payoutsJournal writes n payouts of 30 € and a checkpoint after record cpAt, and returns
// the journal's directory and the operator's copy of the terminal's device public key.
func payoutsJournal(t *testing.T, n, cpAt int) (dir, pub string) {
	t.Helper()
	dir = t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: "T7"})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i := range n {
		id := codes.TicketID{Block: 42, Pack: uint32(i / 8), Position: uint8(i%8 + 1)}
		var s [codes.SecretSize]byte
		s[0] = byte(i)
		if _, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: 3000,
			Code: codes.ValidationCodeOf(id, s)}); err != nil {
			t.Fatal(err)
		}
		if i+1 == cpAt {
			if _, err := j.Checkpoint(); err != nil {
				t.Fatal(err)
			}
		}
	}
	pub = filepath.Join(t.TempDir(), "T7.pub")
	b, err := os.ReadFile(filepath.Join(dir, journal.DevicePubFile))
	if err != nil || os.WriteFile(pub, b, 0o644) != nil {
		t.Fatal(err)
	}
	return dir, pub
}

// forge is the retailer's edit: payout seq raised to amount, every record from `from` on
// re-hashed and re-chained, signed again with key when the retailer has one of their own
// (nil: the old signature bytes stay), the head moved and the day's totals adjusted.
func forge(t *testing.T, dir string, from, seq uint64, amount int64, key ed25519.PrivateKey) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, journal.DBFile), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		recs := tx.Bucket([]byte("records"))
		var prev [32]byte
		k := make([]byte, 8)
		for s := uint64(1); ; s++ {
			binary.BigEndian.PutUint64(k, s)
			v := recs.Get(k)
			if v == nil {
				binary.BigEndian.PutUint64(k, s-1)
				return tx.Bucket([]byte("meta")).Put([]byte("head"), append(append([]byte(nil), k...), prev[:]...))
			}
			r, err := journal.DecodeRecord(v)
			if err != nil {
				return err
			}
			if s < from {
				prev = r.Hash
				continue
			}
			if s == seq {
				day := []byte(r.Time.Format(time.DateOnly))
				totals := append([]byte(nil), tx.Bucket([]byte("days")).Get(day)...)
				add := func(off int) {
					binary.BigEndian.PutUint64(totals[off:], binary.BigEndian.Uint64(totals[off:])+uint64(amount-r.Amount))
				}
				add(24)                     // the day's payouts amount
				add(48 + (r.Game-1)*16 + 8) // its game's
				if err := tx.Bucket([]byte("days")).Put(day, totals); err != nil {
					return err
				}
				r.Amount = amount
			}
			r.Prev = prev
			enc := resign(rehash(journal.AppendRecord(nil, &r)), key)
			copy(prev[:], enc[len(enc)-32-trailer(enc):])
			if err := recs.Put(append([]byte(nil), k...), enc); err != nil {
				return err
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// trailer is what follows a record's hash: key id and signature (version 2), or nothing.
func trailer(enc []byte) int {
	if enc[0] >= 2 {
		return 8 + ed25519.SignatureSize
	}
	return 0
}

// rehash puts the hash of the record's body in place (SHA-256 of the domain and the body).
func rehash(enc []byte) []byte {
	n := len(enc) - 32 - trailer(enc)
	h := sha256.Sum256(append([]byte("packterm journal record v1\x00"), enc[:n]...))
	copy(enc[n:], h[:])
	return enc
}

// resign signs the record with key, the retailer's own (nil: leaves it as it is).
func resign(enc []byte, key ed25519.PrivateKey) []byte {
	if key == nil || trailer(enc) == 0 {
		return enc
	}
	n := len(enc) - trailer(enc)
	kid := ledger.IDOf(key.Public().(ed25519.PublicKey))
	copy(enc[n:], kid[:])
	msg := append(append([]byte("packterm journal record signature v2\x00"), kid[:]...), enc[n-32:n]...)
	copy(enc[n+8:], ed25519.Sign(key, msg))
	return enc
}

// resignCheckpoints signs every checkpoint with key (its key id in them too).
func resignCheckpoints(t *testing.T, dir string, key ed25519.PrivateKey) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, journal.DBFile), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kid := ledger.IDOf(key.Public().(ed25519.PublicKey))
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("checkpoints"))
		return b.ForEach(func(k, v []byte) error {
			v = append([]byte(nil), v...)
			n := len(v) - ed25519.SignatureSize
			copy(v[n-8:n], kid[:])
			copy(v[n:], ed25519.Sign(key, append([]byte("packterm journal checkpoint v1\x00"), v[:n]...)))
			return b.Put(k, v)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRetailerRechainedPayoutNamed: payout 25 (after the last checkpoint, at 20) raised from
// 30 € to 150 € and every later record re-chained: verify names T7/25, exit 1.
func TestRetailerRechainedPayoutNamed(t *testing.T) {
	dir, pub := payoutsJournal(t, 30, 20)
	forge(t, dir, 25, 25, 15000, nil)
	for _, args := range [][]string{{"--pub", pub}, nil} {
		out, err := run(t, append([]string{"journal", "verify", dir}, args...)...)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "record T7/25 changed or damaged") || strings.Contains(out, "ok") {
			t.Fatalf("verify %v of a re-chained edit: %v\n%s", args, err, out)
		}
	}
}

// TestRetailerReplacesDevicePub: the same edit, and the retailer's own key written as
// device.pub (and device.key) with every record and checkpoint signed again by it. Without
// --pub verify is not "ok" (exit 2, it says the key is the one found next to the journal);
// with the operator's copy of the key, the journal is refused (exit 1), the record named
// with the key that signed it, and device.pub reported replaced.
func TestRetailerReplacesDevicePub(t *testing.T) {
	dir, pub := payoutsJournal(t, 30, 20)
	_, evil, _ := ed25519.GenerateKey(nil)
	evilID := ledger.IDOf(evil.Public().(ed25519.PublicKey))
	forge(t, dir, 1, 25, 15000, evil)
	resignCheckpoints(t, dir, evil)
	os.WriteFile(filepath.Join(dir, journal.DeviceKeyFile), ledger.MarshalPrivateKey(evil, "device T7"), 0o600)
	os.WriteFile(filepath.Join(dir, journal.DevicePubFile), ledger.MarshalPublicKey(evil.Public().(ed25519.PublicKey), "device T7"), 0o644)

	out, err := run(t, "journal", "verify", dir)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || strings.Contains(out, "ok") || !strings.Contains(out, "NOT VOUCHED") ||
		!strings.Contains(err.Error(), "found next to the journal") {
		t.Fatalf("verify without --pub of a re-signed journal: %v\n%s", err, out)
	}
	out, err = run(t, "journal", "verify", dir, "--pub", pub)
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "record T7/1 changed or damaged") ||
		!strings.Contains(err.Error(), "signed by key "+evilID.String()) || !strings.Contains(out, "it was replaced") {
		t.Fatalf("verify --pub of a re-signed journal: %v\n%s", err, out)
	}
}

// TestRetailerResignsTailOnly: the retailer signs with their own key only the records
// from the edited one on: with the operator's key, verify names the edited record.
func TestRetailerResignsTailOnly(t *testing.T) {
	dir, pub := payoutsJournal(t, 30, 20)
	_, evil, _ := ed25519.GenerateKey(nil)
	forge(t, dir, 25, 25, 15000, evil)
	_, err := run(t, "journal", "verify", dir, "--pub", pub)
	if err == nil || !strings.Contains(err.Error(), "record T7/25 changed or damaged") {
		t.Fatalf("verify --pub: %v", err)
	}
}
