package settle

import (
	"crypto/ed25519"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// winners are the first n winning tickets of the test block.
func (tb *testBlock) winners(t *testing.T, n int) []codes.TicketID {
	t.Helper()
	var out []codes.TicketID
	for pack := range tb.def.BlockPacks {
		for pos := 1; pos <= 8 && len(out) < n; pos++ {
			id := codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}
			if tb.prize(id) > 0 {
				out = append(out, id)
			}
		}
	}
	if len(out) < n {
		t.Fatalf("%d winners, want %d", len(out), n)
	}
	return out
}

// signedJournal writes entries to a real journal of terminal and returns its records
// and its device key (what the operator registers with the fleet).
func signedJournal(t *testing.T, terminal string, es []journal.Entry) ([]journal.Record, ed25519.PublicKey) {
	t.Helper()
	j, err := journal.Open(t.TempDir(), journal.Options{Terminal: terminal})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for _, e := range es {
		if _, err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	var recs []journal.Record
	j.Each(time.Time{}, func(r journal.Record) error { recs = append(recs, r); return nil })
	return recs, j.PublicKey()
}

// next is a record following prev (sequence prev.Seq+1, chained to it unless prevHash is
// given) paying e, forged by the insider with key (nil: unsigned).
func next(t *testing.T, prev journal.Record, e journal.Entry, prevHash *[32]byte, key ed25519.PrivateKey) journal.Record {
	t.Helper()
	r := journal.Record{Entry: e, Terminal: prev.Terminal, Seq: prev.Seq + 1, Boot: prev.Boot, Prev: prev.Hash}
	r.Time = prev.Time.Add(time.Minute)
	r.Game = int(e.Ticket.Position)
	if prevHash != nil {
		r.Prev = *prevHash
	}
	_, out, err := testblock.ForgeRecord(r, key)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keysOf(m map[string]ed25519.PublicKey) func(string) []ed25519.PublicKey {
	return func(id string) []ed25519.PublicKey {
		if k, ok := m[id]; ok {
			return []ed25519.PublicKey{k}
		}
		return nil
	}
}

// TestWitnessInsider is issue 46's "the fleet is the witness" in the retailer's shoes:
// root on R1, they publish after R1's genuine signed records (a) an unsigned record,
// (b) a record signed with a key of their own, (c) a record whose Prev is not the hash of
// the record before (a history rewritten). Each is a finding naming its record and
// reason, the payout on it is flagged with that reason (not proven), and the genuine
// payouts stay proven. Before, settlement checked neither signature nor chain: all four
// payouts were proven.
func TestWitnessInsider(t *testing.T) {
	tb := newTestBlock(t)
	w := tb.winners(t, 4)
	pay := func(i int) journal.Entry { return payAt(w[i], trueSecret(t, w[i]), tb.prize(w[i])) }
	recs, pub := signedJournal(t, "R1", []journal.Entry{pay(0), pay(1)})
	_, other, _ := ed25519.GenerateKey(nil)
	unsigned := next(t, recs[1], pay(2), nil, nil)   // R1/3
	foreign := next(t, unsigned, pay(3), nil, other) // R1/4
	bogus := [32]byte{1, 2, 3}
	rechained := next(t, foreign, journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: 3}, Amount: 5000}, &bogus, other)
	all := append(recs, unsigned, foreign, rechained)
	keys := keysOf(map[string]ed25519.PublicKey{"R1": pub})

	wit := CheckRecords(all, keys)
	want := map[string]string{"R1/3": ReasonUnsigned, "R1/4": ReasonBadSignature, "R1/5": ReasonRechained}
	got := map[string]string{}
	for _, f := range wit.Findings {
		got[f.Record] += f.Reason
	}
	if len(got) != 3 || got["R1/3"] != ReasonUnsigned || got["R1/4"] != ReasonBadSignature || got["R1/5"] != ReasonRechained+ReasonBadSignature &&
		got["R1/5"] != ReasonBadSignature+ReasonRechained {
		t.Fatalf("findings %+v", wit.Findings)
	}
	s, err := Settle(all, tb.truth(t), claimsOf(all), WithWitness(wit))
	if err != nil {
		t.Fatal(err)
	}
	if s.Clean() || s.Totals.Proven != 2 || s.Totals.Flagged != 2 {
		t.Fatalf("totals %+v", s.Totals)
	}
	for id, reason := range want {
		if id == "R1/5" {
			continue // a sale: no payout to flag
		}
		if p := flagged(t, s, id); !p.Has(reason) || len(p.Flags) != 1 {
			t.Errorf("%s: %+v, want only %s", id, p.Flags, reason)
		}
	}
	var text strings.Builder
	s.WriteText(&text)
	for id, reason := range want {
		if !strings.Contains(text.String(), reason+": record "+id) {
			t.Errorf("text lacks %s of %s:\n%s", reason, id, text.String())
		}
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"witness":{"findings":[{"record":"R1/3"`) {
		t.Errorf("JSON: %s", b)
	}
	// Without the witness, the same settlement proves them (what it did before).
	if s, _ := Settle(all, tb.truth(t), claimsOf(all)); s.Totals.Proven != 4 {
		t.Errorf("without the witness: %+v", s.Totals)
	}
}

// TestWitnessGenuine: a genuine signed journal is clean, checked with one signature
// verification (its last record vouches for the chain), published twice or not.
func TestWitnessGenuine(t *testing.T) {
	tb := newTestBlock(t)
	w := tb.winners(t, 3)
	var es []journal.Entry
	for _, id := range w {
		es = append(es, payAt(id, trueSecret(t, id), tb.prize(id)))
	}
	recs, pub := signedJournal(t, "R1", es)
	wit := CheckRecords(append(recs, recs...), keysOf(map[string]ed25519.PublicKey{"R1": pub}))
	if !wit.Clean() || wit.Records != 3 || wit.Verifications != 1 {
		t.Fatalf("%+v", wit)
	}
	s, err := Settle(recs, tb.truth(t), claimsOf(recs), WithWitness(wit))
	if err != nil || !s.Clean() || s.Totals.Proven != 3 {
		t.Fatalf("%v %+v", err, s)
	}
}

// TestWitnessSignatureDamaged: a record whose key id is the device key's but whose
// signature is not (the last of the chain, so nothing vouches for it) is bad-signature;
// the records before it, vouched by nothing once it fails, are each verified and hold.
func TestWitnessSignatureDamaged(t *testing.T) {
	tb := newTestBlock(t)
	w := tb.winners(t, 3)
	var es []journal.Entry
	for _, id := range w {
		es = append(es, payAt(id, trueSecret(t, id), tb.prize(id)))
	}
	recs, pub := signedJournal(t, "R1", es)
	recs[2].Sig[5] ^= 1
	wit := CheckRecords(recs, keysOf(map[string]ed25519.PublicKey{"R1": pub}))
	if len(wit.Findings) != 1 || wit.Findings[0].Record != "R1/3" || wit.Findings[0].Reason != ReasonBadSignature {
		t.Fatalf("%+v", wit.Findings)
	}
}

// TestWitnessNoDeviceKey: a terminal without a registered device key is listed once, its
// payouts flagged no-device-key; its chain is still checked.
func TestWitnessNoDeviceKey(t *testing.T) {
	tb := newTestBlock(t)
	w := tb.winners(t, 2)
	recs, _ := signedJournal(t, "R2", []journal.Entry{payAt(w[0], trueSecret(t, w[0]), tb.prize(w[0]))})
	bogus := [32]byte{9}
	recs = append(recs, next(t, recs[0], payAt(w[1], trueSecret(t, w[1]), tb.prize(w[1])), &bogus, nil))
	wit := CheckRecords(recs, keysOf(nil))
	if wit.Clean() || len(wit.NoDeviceKey) != 1 || wit.NoDeviceKey[0] != (KeylessTerminal{"R2", 2}) ||
		len(wit.Findings) != 1 || wit.Findings[0].Reason != ReasonRechained {
		t.Fatalf("%+v", wit)
	}
	s, err := Settle(recs, tb.truth(t), claimsOf(recs), WithWitness(wit))
	if err != nil || s.Totals.Flagged != 2 {
		t.Fatalf("%v %+v", err, s)
	}
	if p1, p2 := flagged(t, s, "R2/1"), flagged(t, s, "R2/2"); !p1.Has(ReasonNoDeviceKey) || !p2.Has(ReasonRechained) || !p2.Has(ReasonNoDeviceKey) {
		t.Errorf("%+v %+v", p1, p2)
	}
	if l := wit.Lines(); len(l) != 2 || !strings.Contains(l[1], "no-device-key: terminal R2: 2 records") {
		t.Errorf("%q", l)
	}
}

// TestWitnessChainEdges: a record after a gap is not chain-checked (the gap is the
// report's finding); record 1 naming a previous record is re-chained; a journal reset
// naming none is not, and its new key verifies beside the retired one; a fork (two records
// under one id, each chained to the same predecessor and signed) is each verified on
// its own and left to the report's fork finding.
func TestWitnessChainEdges(t *testing.T) {
	tb := newTestBlock(t)
	w := tb.winners(t, 4)
	pay := func(i int) journal.Entry { return payAt(w[i], trueSecret(t, w[i]), tb.prize(w[i])) }
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: "R3"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := j.Append(pay(i)); err != nil {
			t.Fatal(err)
		}
	}
	var recs []journal.Record
	j.Each(time.Time{}, func(r journal.Record) error { recs = append(recs, r); return nil })
	pub := j.PublicKey()
	j.Close()
	priv, err := loadDeviceKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	keys := keysOf(map[string]ed25519.PublicKey{"R3": pub})
	// Gap: record 2 missing, record 3 kept.
	if wit := CheckRecords([]journal.Record{recs[0], recs[2]}, keys); !wit.Clean() {
		t.Errorf("gap: %+v", wit.Findings)
	}
	// Record 1 with a Prev (the decoder refuses it too).
	if d, bad := ChainFault(&journal.Record{Terminal: "R3", Seq: 1, Prev: [32]byte{7}}, nil); !bad || d == "" {
		t.Error("record 1 with a prev passes")
	}
	// A journal reset by a technician who did not know the last hash: its journal-reset
	// record names no previous record, and a new device key signs from there on. With the
	// old key retired beside the new one, nothing is found; with the new key alone, the
	// old records are not its; a reset record naming another previous is re-chained.
	_, newKey, _ := ed25519.GenerateKey(nil)
	reset := next(t, recs[2], journal.Entry{Kind: journal.KindReset, Reason: "missing", Detail: "started afresh by test"}, &[32]byte{}, newKey)
	after := next(t, reset, pay(3), nil, newKey)
	both := func(string) []ed25519.PublicKey { return []ed25519.PublicKey{newKey.Public().(ed25519.PublicKey), pub} }
	if wit := CheckRecords(append(slices.Clone(recs), reset, after), both); !wit.Clean() || wit.Verifications != 2 {
		t.Errorf("reset, old key retired: %+v (%d verifications)", wit.Findings, wit.Verifications)
	}
	onlyNew := func(string) []ed25519.PublicKey { return []ed25519.PublicKey{newKey.Public().(ed25519.PublicKey)} }
	if wit := CheckRecords(append(slices.Clone(recs), reset, after), onlyNew); len(wit.Findings) != 3 || wit.Findings[0].Reason != ReasonBadSignature {
		t.Errorf("reset, old key not kept: %+v", wit.Findings)
	}
	badReset := next(t, recs[2], journal.Entry{Kind: journal.KindReset, Reason: "missing", Detail: "started afresh by test"}, &[32]byte{5}, newKey)
	if wit := CheckRecords(append(slices.Clone(recs), badReset), both); len(wit.Findings) != 1 || wit.Findings[0].Reason != ReasonRechained {
		t.Errorf("reset naming another previous: %+v", wit.Findings)
	}
	// Fork at 3, both chained to 2 and signed with the device key.
	fork := next(t, recs[1], pay(3), nil, priv)
	wit := CheckRecords(append(recs, fork), keys)
	if !wit.Clean() || wit.Verifications < 3 {
		t.Errorf("fork: %+v (%d verifications)", wit.Findings, wit.Verifications)
	}
}

// loadDeviceKey is the journal's device private key in dir: what the retailer, root on
// the terminal, holds.
func loadDeviceKey(dir string) (ed25519.PrivateKey, error) {
	return ledger.LoadPrivateKey(filepath.Join(dir, journal.DeviceKeyFile))
}

// signedChains are terminals × n sale records per terminal, each chain signed with its
// terminal's key as a journal signs it (testblock.ForgeRecord with the device key).
func signedChains(b *testing.B, terminals, n int) ([]journal.Record, map[string]ed25519.PublicKey) {
	keys := map[string]ed25519.PublicKey{}
	var recs []journal.Record
	for tm := range terminals {
		id := "T" + strconv.Itoa(tm)
		pub, priv, _ := ed25519.GenerateKey(nil)
		keys[id] = pub
		var prev journal.Record
		for i := range n {
			r := journal.Record{Entry: journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: uint32(i)}, Amount: 5000,
				Time: time.Unix(1_800_000_000+int64(i), 0).UTC()}, Terminal: id, Seq: uint64(i + 1), Prev: prev.Hash}
			_, out, err := testblock.ForgeRecord(r, priv)
			if err != nil {
				b.Fatal(err)
			}
			recs = append(recs, out)
			prev = out
		}
	}
	return recs, keys
}

// BenchmarkCheckRecords: the report's witness check of 100 terminals × 1,000 genuine
// signed records ("chains": one verification per terminal's unbroken chain), and of the
// same with every record's signature verified ("each": what a chain broken at every
// record costs, the bound an insider can force).
func BenchmarkCheckRecords(b *testing.B) {
	recs, keys := signedChains(b, 100, 1000)
	b.Run("chains", func(b *testing.B) {
		for b.Loop() {
			if w := CheckRecords(recs, keysOf(keys)); !w.Clean() || w.Verifications != 100 {
				b.Fatalf("%+v", w.Findings)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs)), "ns/record")
	})
	b.Run("each", func(b *testing.B) {
		for b.Loop() {
			for i := range recs {
				if recs[i].VerifySignature(keys[recs[i].Terminal]) != nil {
					b.Fatal("bad signature")
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs)), "ns/record")
	})
}
