package server_test

import (
	"context"
	"crypto/ed25519"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// witnessJournal is a terminal's real journal with n sale records, its records and its
// device private key (what a retailer root on the terminal holds).
func witnessJournal(t *testing.T, id string, n int) ([]journal.Record, ed25519.PrivateKey) {
	t.Helper()
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: id})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i := range n {
		if _, err := j.Append(journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: uint32(i)}, Amount: 5000}); err != nil {
			t.Fatal(err)
		}
	}
	var recs []journal.Record
	j.Each(time.Time{}, func(r journal.Record) error { recs = append(recs, r); return nil })
	priv, err := ledger.LoadPrivateKey(filepath.Join(dir, journal.DeviceKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	return recs, priv
}

// forged is a sale record after prev (chained to it unless prevHash is given), encoded by
// the insider's own tool with key (nil: unsigned).
func forged(t *testing.T, prev journal.Record, prevHash *[32]byte, key ed25519.PrivateKey) ([]byte, journal.Record) {
	t.Helper()
	r := journal.Record{Entry: journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: 900}, Amount: 5000,
		Time: prev.Time.Add(time.Minute)}, Terminal: prev.Terminal, Seq: prev.Seq + 1, Boot: prev.Boot, Prev: prev.Hash}
	if prevHash != nil {
		r.Prev = *prevHash
	}
	enc, out, err := testblock.ForgeRecord(r, key)
	if err != nil {
		t.Fatal(err)
	}
	return enc, out
}

func registryWith(t *testing.T, keys map[string]ed25519.PublicKey) *server.Registry {
	t.Helper()
	reg := &server.Registry{}
	for id, k := range keys {
		reg.Terminals = append(reg.Terminals, server.Terminal{ID: id, DevicePub: server.EncodeDeviceKey(k)})
	}
	return reg
}

// TestWitnessObserve: the witness passes a genuine journal (and the same records again),
// and finds, each on its record: an unsigned record after signed ones, a record signed
// with another key, a record whose Prev is not the hash of the record before it, and a
// late record that the next one held does not name as its previous. Only terminals with
// a finding are marked; a terminal without a registered key is chain-checked only.
func TestWitnessObserve(t *testing.T) {
	recs, priv := witnessJournal(t, "R1", 3)
	other, _ := witnessJournal(t, "R2", 2)
	_, stranger, _ := ed25519.GenerateKey(nil)
	w := server.NewWitness(nil, server.WitnessOptions{Registry: registryWith(t, map[string]ed25519.PublicKey{
		"R1": priv.Public().(ed25519.PublicKey)})})
	for _, r := range append(append(recs, recs...), other...) {
		if fs := w.Observe(r); len(fs) != 0 {
			t.Fatalf("genuine %s: %+v", r.ID(), fs)
		}
	}
	if _, bad := w.Unverified("R1"); bad {
		t.Fatal("R1 marked on genuine records")
	}
	_, unsigned := forged(t, recs[2], nil, nil)
	_, foreign := forged(t, unsigned, nil, stranger)
	_, rechained := forged(t, foreign, &[32]byte{1}, priv)
	for _, c := range []struct {
		r      journal.Record
		reason string
	}{{unsigned, fleet.WitnessUnsigned}, {foreign, fleet.WitnessBadSignature}, {rechained, fleet.WitnessRechained}} {
		fs := w.Observe(c.r)
		if len(fs) != 1 || fs[0].Reason != c.reason || fs[0].Record != c.r.ID() {
			t.Errorf("%s: %+v, want %s", c.r.ID(), fs, c.reason)
		}
	}
	if d, bad := w.Unverified("R1"); !bad || !strings.Contains(d, "R1/4") {
		t.Errorf("R1: %q %v", d, bad)
	}
	// R2 has no key: an unsigned record passes, a forged Prev does not; a record 1 arriving
	// after record 2 that names another previous is re-chained too.
	_, r2unsigned := forged(t, other[1], nil, nil)
	if fs := w.Observe(r2unsigned); len(fs) != 0 {
		t.Errorf("R2 unsigned, no key: %+v", fs)
	}
	late, _ := witnessJournal(t, "R5", 2)
	w2 := server.NewWitness(nil, server.WitnessOptions{})
	w2.Observe(late[1])
	first := journal.Record{Terminal: "R5"}
	first.Time = late[0].Time
	_, fake := forged(t, first, nil, nil) // another record 1
	if fs := w2.Observe(fake); len(fs) != 1 || fs[0].Reason != fleet.WitnessRechained {
		t.Errorf("late record 1: %+v", fs)
	}
	if _, bad := w.Unverified("R2"); bad {
		t.Error("R2 marked")
	}
	// R1's journal reset by a technician (the last hash unknown: its journal-reset record
	// names none) with a new device key, registered with --replace: the old key retired
	// beside it, nothing is found.
	newPub, newKey, _ := ed25519.GenerateKey(nil)
	reset := journal.Record{Entry: journal.Entry{Kind: journal.KindReset, Reason: "missing", Detail: "started afresh by test",
		Time: recs[2].Time.Add(time.Hour)}, Terminal: "R1", Seq: 4, Boot: recs[2].Boot}
	_, reset, err := testblock.ForgeRecord(reset, newKey)
	if err != nil {
		t.Fatal(err)
	}
	_, after := forged(t, reset, nil, newKey)
	replaced := registryWith(t, map[string]ed25519.PublicKey{"R1": newPub})
	replaced.Terminals[0].RetiredDevicePubs = []string{server.EncodeDeviceKey(priv.Public().(ed25519.PublicKey))}
	w3 := server.NewWitness(nil, server.WitnessOptions{Registry: replaced})
	for _, r := range append(slices.Clone(recs), reset, after) {
		if fs := w3.Observe(r); len(fs) != 0 {
			t.Errorf("reset, key replaced: %s: %+v", r.ID(), fs)
		}
	}
	// A terminal's journal sent again from its start, past the window the witness holds:
	// signature-checked only, nothing found.
	long, longKey := witnessJournal(t, "R6", 3*16)
	w4 := server.NewWitness(nil, server.WitnessOptions{Registry: registryWith(t, map[string]ed25519.PublicKey{"R6": longKey.Public().(ed25519.PublicKey)})})
	for _, r := range append(slices.Clone(long), long...) {
		if fs := w4.Observe(r); len(fs) != 0 {
			t.Fatalf("sent again: %s: %+v", r.ID(), fs)
		}
	}
	_, late6 := forged(t, long[1], &[32]byte{3}, longKey) // R6/3 again, re-chained, past the window: the report's
	if fs := w4.Observe(late6); len(fs) != 0 {
		t.Errorf("re-chained past the window: %+v", fs)
	}
	var nilWitness *server.Witness
	if _, bad := nilWitness.Unverified("R1"); bad {
		t.Error("nil witness marks")
	}
}

// witnessFleet is an embedded fleet server with one terminal R1 registered with its
// device key, the operator's JetStream and stores, and R1's own connection.
type witnessFleet struct {
	js   jetstream.JetStream
	reg  *server.Registry
	term *nats.Conn
}

func newWitnessFleet(t *testing.T, devicePub ed25519.PublicKey) *witnessFleet {
	t.Helper()
	dir := t.TempDir()
	reg, err := server.InitData(dir)
	if err != nil {
		t.Fatal(err)
	}
	seed := filepath.Join(dir, "R1.nk")
	kp, err := server.NewSeedFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	reg.Terminals = append(reg.Terminals, server.Terminal{ID: "R1", Retailer: 5, NKey: pub, DevicePub: server.EncodeDeviceKey(devicePub)})
	s, err := server.Start(server.Options{DataDir: dir, Listen: "127.0.0.1:0", Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	op, err := s.ConnectInProcess(filepath.Join(dir, server.OperatorSeedFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(op.Close)
	js, _ := jetstream.New(op)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := server.EnsureStores(ctx, js, 1); err != nil {
		t.Fatal(err)
	}
	opt, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	term, err := nats.Connect(s.URL(), opt, nats.CustomInboxPrefix(fleet.InboxPrefix+"R1"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(term.Close)
	return &witnessFleet{js: js, reg: reg, term: term}
}

// publish sends a record's encoding on R1's own journal subject, as its credentials allow.
// publish stores a record of R1's in the journal stream as the journal's intake does for
// R1's own publication (intake.go: it checks the record is R1's, not its signature).
func (f *witnessFleet) publish(t *testing.T, r journal.Record, enc []byte) {
	t.Helper()
	if _, err := f.js.Publish(context.Background(), fleet.JournalSubject(&r), enc); err != nil {
		t.Fatal(err)
	}
}

// runWitness runs a witness until the test ends and waits until it has checked the
// stream present at start.
func (f *witnessFleet) runWitness(t *testing.T) *server.Witness {
	t.Helper()
	ready := make(chan struct{})
	w := server.NewWitness(f.js, server.WitnessOptions{Registry: f.reg, Ready: ready})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("witness: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("witness never ready")
	}
	return w
}

// witnessRefusals are the witness's findings in the refusals stream.
func witnessRefusals(t *testing.T, js jetstream.JetStream) []fleet.Refusal {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out []fleet.Refusal
	bad, err := server.ReadRefusals(ctx, js, func(r fleet.Refusal) error { out = append(out, r); return nil })
	if err != nil || len(bad) > 0 {
		t.Fatalf("%v %v", err, bad)
	}
	return out
}

// TestWitnessLive is the insider's unsigned record in the embedded server: R1's retailer,
// with R1's own credentials, publishes R1's genuine records, then an unsigned record.
// The witness, reading the journal stream as records arrive, records the finding in the
// refusals stream (reason unsigned-record, the record's id) and marks R1: the claim
// checker refuses R1's claims journal-unverified, whatever they claim. A witness started
// again rebuilds the mark from the stream and does not record the finding twice.
func TestWitnessLive(t *testing.T) {
	recs, priv := witnessJournal(t, "R1", 3)
	f := newWitnessFleet(t, priv.Public().(ed25519.PublicKey))
	w := f.runWitness(t)
	for i := range recs {
		f.publish(t, recs[i], journal.AppendRecord(nil, &recs[i]))
	}
	enc, unsigned := forged(t, recs[2], nil, nil)
	f.publish(t, unsigned, enc)
	deadline := time.Now().Add(10 * time.Second)
	for _, bad := w.Unverified("R1"); !bad; _, bad = w.Unverified("R1") {
		if time.Now().After(deadline) {
			t.Fatal("R1 never marked")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var rs []fleet.Refusal
	for rs = witnessRefusals(t, f.js); len(rs) == 0 && time.Now().Before(deadline); rs = witnessRefusals(t, f.js) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(rs) != 1 || rs[0].Reason != fleet.WitnessUnsigned || rs[0].Record != "R1/4" || rs[0].Terminal != "R1" {
		t.Fatalf("refusals %+v", rs)
	}
	c := server.Checker{Retailer: func(string) (uint32, bool) { return 5, true }, Unverified: w.Unverified}
	v := c.Check(context.Background(), "R1", fleet.ClaimRequest{Ticket: codes.TicketID{Block: 7, Pack: 1, Position: 1}, Code: "x"})
	if v.Reason != fleet.RefusedJournalUnverified || !strings.Contains(v.Detail, "R1/4") {
		t.Fatalf("claim: %+v", v)
	}
	again := f.runWitness(t)
	if _, bad := again.Unverified("R1"); !bad {
		t.Error("a witness started again does not mark R1")
	}
	if rs := witnessRefusals(t, f.js); len(rs) != 1 {
		t.Errorf("finding recorded again: %+v", rs)
	}
}

// BenchmarkWitnessObserve: the live witness's cost per record arriving (one signature
// verification, the chain check against the record held before it, the window kept):
// a terminal's chain of 2,000 signed records, observed by a fresh witness each round.
func BenchmarkWitnessObserve(b *testing.B) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	var recs []journal.Record
	var prev journal.Record
	for i := range 2000 {
		r := journal.Record{Entry: journal.Entry{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: uint32(i)}, Amount: 5000,
			Time: time.Unix(1_800_000_000+int64(i), 0).UTC()}, Terminal: "R1", Seq: uint64(i + 1), Prev: prev.Hash}
		_, out, err := testblock.ForgeRecord(r, priv)
		if err != nil {
			b.Fatal(err)
		}
		recs, prev = append(recs, out), out
	}
	reg := &server.Registry{Terminals: []server.Terminal{{ID: "R1", DevicePub: server.EncodeDeviceKey(pub)}}}
	for b.Loop() {
		w := server.NewWitness(nil, server.WitnessOptions{Registry: reg})
		for _, r := range recs {
			if fs := w.Observe(r); len(fs) > 0 {
				b.Fatal(fs)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs)), "ns/record")
}
