package journal

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// paidFixture is a journal of 12 records: payouts (one made offline, one in another zone),
// a refusal, a sale, and a checkpoint at record cpAt (0: none).
func paidFixture(t *testing.T, cpAt int) *fixture {
	t.Helper()
	f := newFixture(t)
	offline := payoutN(4)
	offline.Reason = ReasonUnconfirmed
	elsewhere := payoutN(5)
	elsewhere.Time = testStart.Add(time.Minute).In(time.FixedZone("", -5*3600-1800))
	es := []Entry{payoutN(0), payoutN(1), {Kind: KindRefused, Reason: "forged"}, payoutN(2), payoutN(3),
		offline, {Kind: KindSale, Ticket: ticketN(8 * 40), Amount: 1000}, elsewhere, payoutN(6), payoutN(7), payoutN(9), payoutN(10)}
	es[6].Ticket.Position = 0
	for i, e := range es {
		f.append(t, e)
		f.clock.Advance(time.Second)
		if i+1 == cpAt {
			if _, err := f.j.Checkpoint(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

// downgradePaid rewrites the paid index as a journal written before it held the times did:
// ticket → seq (8 bytes).
func downgradePaid(tx *bolt.Tx) error {
	b := tx.Bucket(bPaid)
	var ks, vs [][]byte
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		ks, vs = append(ks, bytes.Clone(k)), append(vs, be64(paidSeq(v)))
	}
	for i := range ks {
		if err := b.Put(ks[i], vs[i]); err != nil {
			return err
		}
	}
	return nil
}

// paidValueLens counts the paid index's entries by value length.
func paidValueLens(t *testing.T, j *Journal) map[int]int {
	t.Helper()
	n := map[int]int{}
	if err := j.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bPaid).ForEach(func(_, v []byte) error { n[len(v)]++; return nil })
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

var paidTickets = []int{0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 11, 12}

// paidAnswers is what Paid answers for the fixture's tickets, as text.
func paidAnswers(t *testing.T, j *Journal) string {
	t.Helper()
	var b bytes.Buffer
	for _, n := range paidTickets {
		r, ok, err := j.Paid(ticketN(n))
		if err != nil {
			t.Fatalf("Paid(%d): %v", n, err)
		}
		fmt.Fprintf(&b, "%d %v %s %d %s %q %v\n", n, ok, r.ID(), r.Seq, r.Time.Format(time.RFC3339Nano), r.Reason, r.Unconfirmed())
	}
	return b.String()
}

// roExports is what `posctl journal verify` and the exports print of the journal in dir,
// opened read-only: its CSV and JSONL exports and its verify report.
func roExports(t *testing.T, dir string) string {
	t.Helper()
	j, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var b bytes.Buffer
	if err := j.WriteCSV(&b, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := j.WriteJSONL(&b, time.Time{}); err != nil {
		t.Fatal(err)
	}
	rep, err := j.Verify()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(&b, rep)
	return b.String()
}

// TestPaidFromIndexAlone: Paid answers each payout's record number, time (in its own zone)
// and offline mark from the paid index, the same from memory, from the file read-only
// and from the records themselves (At).
func TestPaidFromIndexAlone(t *testing.T) {
	f := paidFixture(t, 0)
	fromMem := paidAnswers(t, f.j) // before the fill: from the file
	f.j.paid.wait()
	if got := paidAnswers(t, f.j); got != fromMem {
		t.Fatalf("from memory:\n%s\nfrom the file:\n%s", got, fromMem)
	}
	for _, n := range paidTickets[:10] {
		r, _, _ := f.j.Paid(ticketN(n))
		full, ok, err := f.j.At(r.Seq)
		if err != nil || !ok || full.Ticket != ticketN(n) || !full.Time.Equal(r.Time) || full.Time.Format(time.RFC3339Nano) != r.Time.Format(time.RFC3339Nano) ||
			full.Unconfirmed() != r.Unconfirmed() || full.Terminal != r.Terminal || r.Kind != KindPayout {
			t.Errorf("ticket %d: Paid %+v, record %+v", n, r, full)
		}
	}
	if !bytes.Contains([]byte(fromMem), []byte("-05:30")) || !bytes.Contains([]byte(fromMem), []byte(`"unconfirmed" true`)) {
		t.Errorf("zone or offline mark lost:\n%s", fromMem)
	}
	if n := paidValueLens(t, f.j); n[paidValueLen] != 10 || len(n) != 1 {
		t.Errorf("paid index values: %v", n)
	}
	f.j.Close()
	ro, err := Open(f.dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got := paidAnswers(t, ro); got != fromMem {
		t.Fatalf("read-only:\n%s\nwant:\n%s", got, fromMem)
	}
}

// TestPaidIndexRewrittenForOlderJournal: a journal written before the paid index held the
// times is read as it is read-only, and rewritten at its next open for writing; Paid,
// the exports and the verify report are the same throughout.
func TestPaidIndexRewrittenForOlderJournal(t *testing.T) {
	f := paidFixture(t, 6)
	want := paidAnswers(t, f.j)
	f.j.Close()
	wantExports := roExports(t, f.dir)
	tamper(t, f.dir, downgradePaid)
	if got := roExports(t, f.dir); got != wantExports {
		t.Errorf("exports of the older journal differ:\n%s\nwant:\n%s", got, wantExports)
	}

	ro, err := Open(f.dir, Options{ReadOnly: true})
	if err != nil || ro.Health() != nil {
		t.Fatal(err, ro.Health())
	}
	if n := paidValueLens(t, ro); n[paidValueLenOld] != 10 || len(n) != 1 {
		t.Fatalf("downgraded index: %v", n)
	}
	if got := paidAnswers(t, ro); got != want {
		t.Errorf("read-only, older index:\n%s\nwant:\n%s", got, want)
	}
	ro.Close()

	f.j = nil
	f.reopen(t)
	if f.j.Health() != nil {
		t.Fatal(f.j.Health())
	}
	if n := paidValueLens(t, f.j); n[paidValueLen] != 10 || len(n) != 1 {
		t.Fatalf("index not rewritten: %v", n)
	}
	f.j.paid.wait()
	if got := paidAnswers(t, f.j); got != want {
		t.Errorf("after the rewrite:\n%s\nwant:\n%s", got, want)
	}
	f.j.Close()
	if got := roExports(t, f.dir); got != wantExports {
		t.Errorf("exports after the rewrite differ:\n%s\nwant:\n%s", got, wantExports)
	}
	f.reopen(t)
	f.append(t, payoutN(11))
	if _, err := f.j.Append(payoutN(3)); !errors.Is(err, ErrDuplicatePayout) {
		t.Errorf("second payout after the rewrite: %v", err)
	}
}

// TestPaidIndexRewriteKilled: a kill before the rewrite's transaction commits leaves the
// older index whole (and the boot not counted); the next start rewrites it.
func TestPaidIndexRewriteKilled(t *testing.T) {
	f := paidFixture(t, 3)
	want := paidAnswers(t, f.j)
	boot := f.j.Boot()
	f.j.Close()
	tamper(t, f.dir, downgradePaid)
	killed := errors.New("killed")
	o := f.opts()
	o.cutAt = func(step string) error {
		if step == "paid index rewritten" {
			return killed
		}
		return nil
	}
	if j, err := Open(f.dir, o); !errors.Is(err, killed) {
		if j != nil {
			j.Close()
		}
		t.Fatalf("open killed in the rewrite: %v", err)
	}
	ro, err := Open(f.dir, Options{ReadOnly: true})
	if err != nil || ro.Health() != nil {
		t.Fatal(err, ro.Health())
	}
	if n := paidValueLens(t, ro); n[paidValueLenOld] != 10 || len(n) != 1 {
		t.Errorf("after the kill the index is %v, want the older one whole", n)
	}
	ro.Close()
	f.j = nil
	f.reopen(t)
	if f.j.Health() != nil || f.j.Boot() != boot+1 {
		t.Fatalf("health %v, boot %d after %d", f.j.Health(), f.j.Boot(), boot)
	}
	if n := paidValueLens(t, f.j); n[paidValueLen] != 10 || len(n) != 1 {
		t.Errorf("index not rewritten at the next start: %v", n)
	}
	if got := paidAnswers(t, f.j); got != want {
		t.Errorf("after the rewrite:\n%s\nwant:\n%s", got, want)
	}
	if _, err := f.j.Verify(); err != nil {
		t.Fatal(err)
	}
}

// TestRetailerChangesPaidTime: the retailer (root, bbolt, the documented format) rewrites
// the time or the offline mark a paid index entry holds, so that "already paid" shows
// another day or hides an offline payout. After the last checkpoint, Open names the
// payout and the journal pays nothing; before it, Verify finds it; an index mixing the
// two formats is refused.
func TestRetailerChangesPaidTime(t *testing.T) {
	edit := func(n int, fn func(p *paidAt)) func(tx *bolt.Tx) error {
		return func(tx *bolt.Tx) error {
			b := tx.Bucket(bPaid)
			p, _, _ := decodePaid(b.Get(ticketKey(ticketN(n))))
			fn(&p)
			return b.Put(ticketKey(ticketN(n)), p.appendBinary(nil))
		}
	}
	earlier := func(p *paidAt) { p.ns -= int64(24 * time.Hour) }
	confirmed := func(p *paidAt) { p.unconfirmed = false }

	f := paidFixture(t, 3) // payout 4 (ticket 4, offline: record 6) after the checkpoint
	f.j.Close()
	tamper(t, f.dir, edit(4, confirmed))
	f.j = nil
	f.reopen(t)
	wantCorruptAt(t, f.j.Health(), 6)

	f = paidFixture(t, 12) // all before it
	f.j.Close()
	tamper(t, f.dir, edit(1, earlier))
	f.j = nil
	f.reopen(t)
	if _, err := f.j.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify of a paid index with a changed time: %v", err)
	}

	f = paidFixture(t, 12)
	f.j.Close()
	tamper(t, f.dir, func(tx *bolt.Tx) error { // one entry in the older format among the others
		return tx.Bucket(bPaid).Put(ticketKey(ticketN(9)), be64(11))
	})
	f.j = nil
	f.reopen(t)
	if _, err := f.j.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify of a paid index mixing formats: %v", err)
	}
}

// TestPaidSlotPacking: the memory's packed entry gives back what it packed, at the
// bounds; a seq beyond 40 bits is not packed.
func TestPaidSlotPacking(t *testing.T) {
	for _, p := range []paidAt{
		{seq: 1, ns: 0, off: 0},
		{seq: maxPackedSeq, ns: -1, off: -maxZoneOffset, unconfirmed: true},
		{seq: 12345, ns: testStart.UnixNano(), off: maxZoneOffset},
		{seq: 7, ns: 1 << 62, off: -5*3600 - 1800, unconfirmed: true},
	} {
		s, ok := p.pack()
		if !ok || s.unpack() != p {
			t.Errorf("%+v: packed %v, unpacked %+v", p, ok, s.unpack())
		}
	}
	if _, ok := (paidAt{seq: maxPackedSeq + 1}).pack(); ok {
		t.Error("seq over 40 bits packed")
	}
}

// FuzzDecodePaid: any paid index value decodes to an error or to an entry that encodes
// back to it; never a panic.
func FuzzDecodePaid(f *testing.F) {
	f.Add(paidAt{seq: 3, ns: testStart.UnixNano(), off: 3600, unconfirmed: true}.appendBinary(nil))
	f.Add(be64(42))
	f.Fuzz(func(t *testing.T, v []byte) {
		p, timed, ok := decodePaid(v)
		switch {
		case !ok:
			if p != (paidAt{}) {
				t.Fatalf("refused value gave %+v", p)
			}
		case timed:
			if !bytes.Equal(p.appendBinary(nil), v) {
				t.Fatalf("%x decodes to %+v, which encodes to %x", v, p, p.appendBinary(nil))
			}
			_ = p.record("T0042", ticketN(1))
		default:
			if len(v) != paidValueLenOld || p.seq != u64(v) {
				t.Fatalf("%x: older format with seq %d", v, p.seq)
			}
		}
	})
}
