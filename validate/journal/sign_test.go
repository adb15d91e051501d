package journal

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// TestEveryRecordSigned: every kind of record is signed as it is written; the signature
// is in the stored encoding, so it is in what EachFrom reads and the fleet publishes
// (AppendRecord), and it still verifies on the decoded copy; a changed copy does not.
func TestEveryRecordSigned(t *testing.T) {
	f := newFixture(t)
	pub := f.pubKey(t)
	written := []Record{
		f.append(t, Entry{Kind: KindSale, Ticket: codes.TicketID{Block: 42, Pack: 7}, Amount: 2000}),
		f.append(t, payoutN(1)),
		f.append(t, Entry{Kind: KindClaim, Ticket: ticketN(15), Game: 8, Amount: 100000}),
		f.append(t, Entry{Kind: KindRefused, Ticket: ticketN(9), Reason: "forged"}),
		f.append(t, Entry{Kind: KindConflict, Ticket: ticketN(1), Game: 2, Amount: 3000, Reason: ReasonPaidElsewhere}),
		f.append(t, Entry{Kind: KindConfigChange, Detail: "limite 150 €"}),
	}
	for _, r := range written {
		if !r.Signed() || r.Version != RecordVersion || r.Key != ledger.IDOf(pub) {
			t.Fatalf("%s: not signed: version %d key %v", r.ID(), r.Version, r.Key)
		}
		if err := r.VerifySignature(pub); err != nil {
			t.Fatalf("%s: %v", r.ID(), err)
		}
	}
	n := 0
	err := f.j.EachFrom(1, func(r Record) error {
		if r.Sig != written[n].Sig {
			t.Fatalf("%s: stored signature differs from the one written", r.ID())
		}
		// What the fleet publishes and stores: the record's encoding.
		enc := AppendRecord(nil, &r)
		if len(enc) != len(AppendRecord(nil, &written[n])) {
			t.Fatal("encoding lengths differ")
		}
		c, err := DecodeRecord(enc)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.VerifySignature(pub); err != nil {
			t.Fatalf("fleet copy of %s: %v", r.ID(), err)
		}
		n++
		return nil
	})
	if err != nil || n != len(written) {
		t.Fatal(n, err)
	}

	p := written[1]
	p.Amount = 15000
	seal(&p) // a consistent record, with the old signature
	if err := p.VerifySignature(pub); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("changed payout: %v", err)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	if err := written[1].VerifySignature(other.Public().(ed25519.PublicKey)); !errors.Is(err, ErrBadSignature) || !strings.Contains(err.Error(), "signed by key") {
		t.Fatalf("other key: %v", err)
	}
	old := written[1]
	old.Version = RecordVersionUnsigned
	if err := old.VerifySignature(pub); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("version 1 record: %v", err)
	}
}

// TestVerifyWithoutTrustedKeyIsNotOK: a journal checked with the device.pub found next to
// it verifies, but the report does not vouch for it; with the key given, it does.
func TestVerifyWithoutTrustedKeyIsNotOK(t *testing.T) {
	f := build(t, 5, 0)
	pub := f.pubKey(t)
	ro, err := Open(f.dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ro.Verify()
	ro.Close()
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Vouched()
	if rep.KeyTrusted || !errors.Is(v, ErrUnvouched) || !strings.Contains(v.Error(), "which is not a trusted key") ||
		!strings.Contains(v.Error(), filepath.Join(f.dir, DevicePubFile)) || !strings.Contains(rep.String(), "NOT trusted") {
		t.Fatalf("untrusted key: %v / %v", v, rep)
	}
	if rep.Signed != 5 || rep.Unvouched != 0 || rep.Key != ledger.IDOf(pub) {
		t.Fatalf("report %+v", rep)
	}

	ro, err = Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	rep, err = ro.Verify()
	ro.Close()
	if err != nil || rep.Vouched() != nil || !rep.KeyTrusted {
		t.Fatalf("trusted key: %v %v %+v", err, rep.Vouched(), rep)
	}

	// A writer that loaded DIR/device.key: not a trusted key either; given one: trusted.
	f.j = nil
	f.reopen(t)
	if rep, err := f.j.Verify(); err != nil || rep.KeyTrusted || !strings.Contains(rep.Vouched().Error(), DeviceKeyFile) {
		t.Fatalf("writer with the key file: %v %+v", err, rep)
	}
	f.j.Close()
	key, err := ledger.LoadPrivateKey(filepath.Join(f.dir, DeviceKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	j, err := Open(f.dir, Options{Terminal: "T0042", Clock: f.clock, DeviceKey: key})
	if err != nil {
		t.Fatal(err)
	}
	f.j = j
	if rep, err := j.Verify(); err != nil || rep.Vouched() != nil {
		t.Fatalf("writer with the key given: %v %v", err, rep.Vouched())
	}
}

// TestBatchBoundaries: with more records than one batch of signatures, an edit is named
// wherever it falls: re-chained inside the first batch, re-sealed alone in the second.
func TestBatchBoundaries(t *testing.T) {
	f := newFixture(t)
	es := make([]Entry, sigBatch+500)
	for i := range es {
		es[i] = payoutN(i)
	}
	f.j.db.NoSync = true
	if err := f.j.appendBatch(es); err != nil {
		t.Fatal(err)
	}
	f.j.Close()
	for _, tc := range []struct {
		seq     uint64
		rechain bool
	}{{1000, true}, {sigBatch + 200, false}, {sigBatch, true}, {1, true}} {
		t.Run(strconv.FormatUint(tc.seq, 10), func(t *testing.T) {
			dir := t.TempDir()
			for _, name := range []string{DBFile, DevicePubFile} {
				b, err := os.ReadFile(filepath.Join(f.dir, name))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(dir, name), b, 0o600)
			}
			edit := func(r *Record) { r.Amount++ }
			if tc.rechain {
				tamper(t, dir, rechain(tc.seq, edit, nil))
			} else {
				tamper(t, dir, resealed(tc.seq, edit))
			}
			ro, err := Open(dir, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			_, err = ro.Verify()
			wantCorruptAt(t, err, tc.seq)
		})
	}
}

// legacyJournal writes a journal as the firmware did before records were signed: n
// payouts in the version 1 encoding, a checkpoint after record cpAt (0: none). Then it
// appends signed records after them when signed > 0 (a terminal updated since).
func legacyJournal(t *testing.T, n, cpAt, signed int) *fixture {
	t.Helper()
	f := newFixture(t)
	j := f.j
	err := j.db.Update(func(tx *bolt.Tx) error {
		for i := range n {
			r, err := j.prepare(payoutN(i), j.head+1, j.headHash)
			if err != nil {
				return err
			}
			r.Version = RecordVersionUnsigned
			if err := putRecord(tx, &r, seal(&r)); err != nil {
				return err
			}
			j.advance(r, nil)
			if i+1 == cpAt {
				cp, err := j.putCheckpoint(tx, j.head, j.headHash, j.last.day())
				if err != nil {
					return err
				}
				j.cp = &cp
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range signed {
		f.append(t, payoutN(n+i))
	}
	f.j.Close()
	return f
}

// TestVersion1UnsignedTail: a journal kept from before records were signed opens and
// verifies; the records after its last checkpoint are not vouched for by anything, and
// the report says so. Opened for writing, the terminal checkpoints them at once, and
// signs every record from then on.
func TestVersion1UnsignedTail(t *testing.T) {
	f := legacyJournal(t, 10, 5, 0)
	pub := f.pubKey(t)
	ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil || ro.Health() != nil {
		t.Fatal(err, ro.Health())
	}
	rep, err := ro.Verify()
	ro.Close()
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Vouched(); rep.Signed != 0 || rep.Unvouched != 5 || !errors.Is(v, ErrUnvouched) || !strings.Contains(v.Error(), "(6..10) are signed by nothing") {
		t.Fatalf("legacy tail: %+v %v", rep, v)
	}

	f.j = nil
	f.reopen(t) // the updated firmware starts on it: checkpoint of the unsigned tail
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	r := f.append(t, payoutN(100))
	if !r.Signed() {
		t.Fatal("record appended to a version 1 journal is not signed")
	}
	f.j.Close()
	ro, err = Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rep, err = ro.Verify(); err != nil || rep.Vouched() != nil || rep.Signed != 1 || rep.LastSigned != 10 || rep.Records != 11 {
		t.Fatalf("after the update: %v %v %+v", err, rep.Vouched(), rep)
	}
}

// TestVersion1EditNamesFirstSignature: records written unsigned, before the update, are
// vouched for by the first signature after them only: an edit among them, re-chained, is
// reported at that record, naming the unsigned range it covers.
func TestVersion1EditNamesFirstSignature(t *testing.T) {
	f := legacyJournal(t, 10, 0, 5)
	tamper(t, f.dir, rechain(3, func(r *Record) { r.Amount = 15000 }, nil))
	ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: f.pubKey(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Verify()
	wantCorruptAt(t, err, 11)
	if !strings.Contains(err.Error(), "unsigned records 1..10") {
		t.Fatalf("reason: %v", err)
	}
}

// TestVersion1CorpusJournal: the version 1 journal file of the fuzz corpus (written before
// records were signed) opens read-only and for writing, verifies, and takes signed records.
func TestVersion1CorpusJournal(t *testing.T) {
	b := corpusBytes(t, "FuzzOpenFile", "v1-seed")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, DBFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	pub := fuzzKey.Public().(ed25519.PublicKey)
	ro, err := Open(dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil || ro.Health() != nil {
		t.Fatal(err, ro.Health())
	}
	rep, err := ro.Verify()
	ro.Close()
	if err != nil || rep.Signed != 0 || rep.Records != 8 || rep.Vouched() != nil {
		t.Fatalf("%v %+v %v", err, rep, rep.Vouched())
	}
	clock := clockwork.NewFakeClockAt(testStart.Add(48 * time.Hour))
	j, err := Open(dir, Options{Terminal: "T0042", DeviceKey: fuzzKey, Clock: clock})
	if err != nil || j.Health() != nil {
		t.Fatal(err, j.Health())
	}
	defer j.Close()
	if _, err := j.Append(payoutN(30)); err != nil {
		t.Fatal(err)
	}
	if rep, err = j.Verify(); err != nil || rep.Signed != 1 || rep.Vouched() != nil {
		t.Fatalf("%v %+v", err, rep)
	}
}

// corpusBytes reads a []byte fuzz corpus file of testdata/fuzz.
func corpusBytes(t *testing.T, target, name string) []byte {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", "fuzz", target, name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(text), "\n", 3)
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
		t.Fatalf("%s: not a []byte corpus file", name)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(s)
}
