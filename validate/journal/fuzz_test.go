package journal

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// fuzzKey signs the checkpoints of the opener's seed files (a test key, not a secret).
var fuzzKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))

// seedRecords are records of several kinds, chained and signed with fuzzKey (the
// corpus's v1-* files hold the same records in the unsigned version 1 encoding).
func seedRecords() [][]byte {
	var out [][]byte
	prev := [32]byte{}
	kid := ledger.IDOf(fuzzKey.Public().(ed25519.PublicKey))
	for i, e := range []Entry{
		payoutN(3),
		{Kind: KindSale, Ticket: codes.TicketID{Block: 42, Pack: 7}, Amount: 2000, Receipts: []string{"V1"}},
		{Kind: KindRefused, Ticket: ticketN(9), Reason: "forged"},
		{Kind: KindConfigChange, Detail: "limite de paiement 150 €"},
		{Kind: KindClaim, Ticket: ticketN(15), Game: 8, Amount: 100000000},
	} {
		e.Time = testStart.Add(time.Duration(i) * time.Minute)
		r := Record{Entry: e, Terminal: "T0042", Seq: uint64(i + 1), Boot: 1, Prev: prev}
		out = append(out, sealSigned(fuzzKey, kid, &r))
		prev = r.Hash
	}
	return out
}

func FuzzDecodeRecord(f *testing.F) {
	for _, b := range seedRecords() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeRecord(b)
		if err != nil {
			if r.Seq != 0 || r.Kind != 0 {
				t.Fatal("record returned with an error")
			}
			return
		}
		if !bytes.Equal(AppendRecord(nil, &r), b) {
			t.Fatal("decoded record does not re-encode to its input")
		}
		if r.HasCode() && r.Kind != KindPayout {
			t.Fatal("code accepted on a record that is not a payout")
		}
		if err := checkRecord(&r); err != nil {
			t.Fatalf("decoded record fails its checks: %v", err)
		}
		if r.Signed() != (b[0] == RecordVersion) {
			t.Fatalf("version %d decoded as signed=%v", b[0], r.Signed())
		}
		_ = r.VerifySignature(fuzzKey.Public().(ed25519.PublicKey))
	})
}

func seedCheckpoint() []byte {
	j := &Journal{terminal: "T0042", priv: fuzzKey, pub: fuzzKey.Public().(ed25519.PublicKey)}
	cp := Checkpoint{Terminal: j.terminal, Seq: 12, Time: testStart, Totals: DayTotals{Day: "2026-12-02", Payouts: 3, PayoutsAmount: 9000}}
	copy(cp.Sig[:], ed25519.Sign(j.priv, cp.signed()))
	b, _ := cp.MarshalBinary()
	return b
}

func FuzzDecodeCheckpoint(f *testing.F) {
	f.Add(seedCheckpoint())
	f.Fuzz(func(t *testing.T, b []byte) {
		cp, err := DecodeCheckpoint(b)
		if err != nil {
			return
		}
		if out, _ := cp.MarshalBinary(); !bytes.Equal(out, b) {
			t.Fatal("decoded checkpoint does not re-encode to its input")
		}
		_ = cp.Verify(fuzzKey.Public().(ed25519.PublicKey))
	})
}

// seedFile is a small journal file (1 KiB pages): records of every counted kind, a
// checkpoint, a day change.
func seedFile(t testing.TB) []byte {
	dir := t.TempDir()
	clock := clockwork.NewFakeClockAt(testStart)
	j, err := Open(dir, Options{Terminal: "T0042", Clock: clock, DeviceKey: fuzzKey, pageSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if _, err := j.Append(payoutN(i)); err != nil {
			t.Fatal(err)
		}
	}
	j.Append(Entry{Kind: KindSale, Ticket: codes.TicketID{Block: 42, Pack: 7}, Amount: 2000})
	clock.Advance(24 * time.Hour)
	j.Append(Entry{Kind: KindRefused, Ticket: ticketN(20), Reason: "forged"})
	j.Checkpoint()
	j.Close()
	b, err := os.ReadFile(filepath.Join(dir, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	// Keep the pages in use only (bbolt grows the file ahead of them).
	m, _, err := chooseMeta(parseMeta(b), parseMeta(b[1024:]))
	if err != nil {
		t.Fatal(err)
	}
	return b[:m.pgid*1024]
}

// FuzzOpenFile opens small damaged journal files, read-only then for writing: Open and
// every reader must never panic, fault or hang, whatever the bytes.
func FuzzOpenFile(f *testing.F) {
	f.Add(seedFile(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, DBFile), b, 0o600); err != nil {
			t.Fatal(err)
		}
		clock := clockwork.NewFakeClockAt(testStart.Add(48 * time.Hour))
		for _, o := range []Options{
			{ReadOnly: true, PublicKey: fuzzKey.Public().(ed25519.PublicKey), Clock: clock},
			{Terminal: "T0042", DeviceKey: fuzzKey, Clock: clock},
		} {
			j, err := Open(dir, o)
			if err != nil {
				continue
			}
			j.Verify()
			j.Paid(ticketN(3))
			j.paid.wait() // the paid index in memory, filled from the damaged file (or not)
			j.Paid(ticketN(3))
			j.Sold(42, 7)
			j.Day(testStart)
			j.Tail(3)
			j.Each(time.Time{}, func(Record) error { return nil })
			j.Latest(KindTamper, func(Record) bool { return true })
			if j.Health() == nil && !o.ReadOnly {
				if _, err := j.Append(payoutN(30)); err != nil && j.Health() == nil {
					t.Logf("append on a healthy journal: %v", err)
				}
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestWriteFuzzCorpus writes the seed inputs into testdata/fuzz when
// JOURNAL_WRITE_CORPUS=1 (they are checked in; regenerate after a format change). The
// v1-* files, written before records were signed, are kept as they are: version 1
// records and journals must still decode and open.
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("JOURNAL_WRITE_CORPUS") != "1" {
		t.Skip("set JOURNAL_WRITE_CORPUS=1 to rewrite testdata/fuzz")
	}
	write := func(target, name string, b []byte) {
		dir := filepath.Join("testdata", "fuzz", target)
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, b := range seedRecords() {
		write("FuzzDecodeRecord", fmt.Sprintf("seed-%d", i), b)
		write("FuzzDecodeRecord", fmt.Sprintf("truncated-%d", i), b[:len(b)/2])
	}
	cp := seedCheckpoint()
	write("FuzzDecodeCheckpoint", "seed", cp)
	write("FuzzDecodeCheckpoint", "truncated", cp[:40])
	file := seedFile(t)
	write("FuzzOpenFile", "seed", file)
	for _, off := range []int{16, 3*1024 + 10, len(file) - 100} {
		if off < len(file) {
			b := append([]byte(nil), file...)
			b[off] ^= 0x41
			write("FuzzOpenFile", fmt.Sprintf("flip-%d", off), b)
		}
	}
	write("FuzzOpenFile", "short", file[:1500])
}

// TestNonCanonicalRecordRefused: a record whose terminal length is a non-minimal uvarint
// (same value, one more byte), correctly hashed, is refused: one record, one encoding.
func TestNonCanonicalRecordRefused(t *testing.T) {
	good := seedRecords()[0]
	if _, err := DecodeRecord(good); err != nil {
		t.Fatal(err)
	}
	body := append([]byte{good[0], good[1], good[2] | 0x80, 0x00}, good[3:len(good)-32]...)
	h := recordHash(body)
	bad := append(body, h[:]...)
	if _, err := DecodeRecord(bad); err == nil {
		t.Fatal("non-minimal length accepted")
	}
}
