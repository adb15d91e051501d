package journal

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/validate/codes"
)

func TestAppendAndIndexes(t *testing.T) {
	f := newFixture(t)
	sale := f.append(t, Entry{Kind: KindSale, Ticket: codes.TicketID{Block: 42, Pack: 7}, Amount: 2000, Receipts: []string{"V1"}})
	if sale.Seq != 1 || sale.Prev != ([32]byte{}) || sale.ID() != "T0042/1" || sale.Boot != 1 {
		t.Fatalf("first record: %+v", sale)
	}
	p := f.append(t, payoutN(5))
	if p.Seq != 2 || p.Prev != sale.Hash {
		t.Fatalf("payout not chained: %+v", p)
	}
	f.append(t, Entry{Kind: KindRefused, Ticket: ticketN(6), Reason: "forged"})
	f.append(t, Entry{Kind: KindClaim, Ticket: ticketN(7), Game: 8, Amount: 500000, Receipts: []string{"C1"}})

	got, ok, err := f.j.Paid(ticketN(5))
	if err != nil || !ok || got.Seq != 2 || got.Terminal != "T0042" || !got.Time.Equal(testStart) {
		t.Fatalf("Paid = %+v %v %v", got, ok, err)
	}
	if full, ok, err := f.j.At(got.Seq); err != nil || !ok || full.Code != payoutN(5).Code { // Paid holds what the index holds
		t.Fatalf("At(%d) = %+v %v %v", got.Seq, full, ok, err)
	}
	if _, ok, err := f.j.Paid(ticketN(6)); ok || err != nil {
		t.Fatalf("refused ticket reported paid: %v %v", ok, err)
	}
	if s, ok, err := f.j.Sold(42, 7); !ok || err != nil || s.Seq != 1 {
		t.Fatalf("Sold = %+v %v %v", s, ok, err)
	}
	if _, ok, _ := f.j.Sold(42, 8); ok {
		t.Fatal("unsold pack reported sold")
	}
	d, err := f.j.Day(testStart)
	if err != nil {
		t.Fatal(err)
	}
	if d.Day != "2026-12-02" || d.Sales != 1 || d.SalesAmount != 2000 || d.Payouts != 1 || d.PayoutsAmount != 3000 ||
		d.Claims != 1 || d.ClaimsAmount != 500000 || d.PerGame[6].Payouts != 1 || d.PerGame[6].Amount != 3000 {
		t.Fatalf("day totals: %+v", d)
	}
	if seq, h := f.j.Head(); seq != 4 {
		t.Fatalf("head %d %x", seq, h)
	}
	if l, ok := f.j.Last(); !ok || l.Kind != KindClaim {
		t.Fatalf("last: %+v", l)
	}
	if rep, err := f.j.Verify(); err != nil || rep.Records != 4 || rep.Payouts != 1 || rep.Sales != 1 {
		t.Fatalf("verify: %v %v", rep, err)
	}
}

func TestRefusals(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(1))
	f.append(t, Entry{Kind: KindSale, Ticket: codes.TicketID{Block: 3, Pack: 9}, Amount: 2000})
	cases := []struct {
		name string
		e    Entry
		want error
	}{
		{"second payout", payoutN(1), ErrDuplicatePayout},
		{"claim of a paid ticket", Entry{Kind: KindClaim, Ticket: ticketN(1), Game: 2, Amount: 1}, ErrDuplicatePayout},
		{"second sale", Entry{Kind: KindSale, Ticket: codes.TicketID{Block: 3, Pack: 9}, Amount: 2000}, ErrDuplicateSale},
		{"code on a refusal", Entry{Kind: KindRefused, Ticket: ticketN(2), Reason: "forged", Code: payoutN(2).Code}, ErrInvalidEntry},
		{"code on a claim", Entry{Kind: KindClaim, Ticket: ticketN(2), Game: 3, Amount: 10, Code: payoutN(2).Code}, ErrInvalidEntry},
		{"payout without code", Entry{Kind: KindPayout, Ticket: ticketN(2), Game: 3, Amount: 10}, ErrInvalidEntry},
		{"payout with another ticket's code", func() Entry { e := payoutN(2); e.Code = payoutN(3).Code; return e }(), ErrInvalidEntry},
		{"payout of nothing", Entry{Kind: KindPayout, Ticket: ticketN(2), Game: 3, Code: payoutN(2).Code}, ErrInvalidEntry},
		{"wrong game", func() Entry { e := payoutN(2); e.Game = 1; return e }(), ErrInvalidEntry},
		{"sale of a ticket", Entry{Kind: KindSale, Ticket: ticketN(2), Amount: 2000}, ErrInvalidEntry},
		{"negative amount", Entry{Kind: KindReport, Amount: -1}, ErrInvalidEntry},
		{"unknown kind", Entry{Kind: 99}, ErrInvalidEntry},
		{"control character", Entry{Kind: KindConfigChange, Detail: "a\nb"}, ErrInvalidEntry},
		{"too many receipts", Entry{Kind: KindReprint, Receipts: make([]string, 9)}, ErrInvalidEntry},
	}
	for _, c := range cases {
		if _, err := f.j.Append(c.e); !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
	if seq, _ := f.j.Head(); seq != 2 {
		t.Fatalf("refused entries were recorded: head %d", seq)
	}
	if err := f.j.Health(); err != nil {
		t.Fatalf("refusals changed health: %v", err)
	}
}

// TestCodeStoredCanonical: the entry holds the parsed code, whatever form the scanner gave
// (case, manual dashes); the record stores its canonical text and reads back the same code.
func TestCodeStoredCanonical(t *testing.T) {
	f := newFixture(t)
	e := payoutN(9)
	c, err := codes.ParseValidation(strings.ToLower(e.Code.Manual()))
	if err != nil {
		t.Fatal(err)
	}
	e.Code = c
	r := f.append(t, e)
	paid, ok, err := f.j.Paid(r.Ticket) // the index answers without the code: read the record
	if err != nil || !ok {
		t.Fatalf("paid %v %v", ok, err)
	}
	got, ok, err := f.j.At(paid.Seq)
	if err != nil || !ok || got.Code != payoutN(9).Code || got.CodeText() != payoutN(9).Code.String() {
		t.Fatalf("code read back %v (%q), want %v: %v", got.Code, got.CodeText(), payoutN(9).Code, err)
	}
	if !bytes.Contains(AppendRecord(nil, &r), []byte(payoutN(9).Code.String())) {
		t.Fatal("the record does not store the code's canonical text")
	}
}

func TestReopenKeepsChainAndCountsBoots(t *testing.T) {
	f := newFixture(t)
	for i := range 10 {
		f.append(t, payoutN(i))
	}
	_, h := f.j.Head()
	f.reopen(t)
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	seq, h2 := f.j.Head()
	if seq != 10 || h2 != h || f.j.Boot() != 2 {
		t.Fatalf("after reopen: head %d, boot %d", seq, f.j.Boot())
	}
	r := f.append(t, payoutN(10))
	if r.Boot != 2 || r.Prev != h {
		t.Fatalf("record after reopen: %+v", r)
	}
	if _, err := f.j.Append(payoutN(3)); !errors.Is(err, ErrDuplicatePayout) {
		t.Fatalf("payout before reopen forgotten: %v", err)
	}
	f.j.Close()
	if _, err := Open(f.dir, Options{Terminal: "OTHER", Clock: f.clock}); err == nil {
		t.Fatal("opened another terminal's journal")
	}
	f.j = nil
	f.reopen(t)
}

func TestDailyAndOnDemandCheckpoints(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(1))
	f.append(t, payoutN(2))
	_, day1Head := f.j.Head()
	f.clock.Advance(24 * time.Hour)
	f.append(t, payoutN(3))
	if f.j.cp == nil || f.j.cp.Seq != 2 || f.j.cp.Hash != day1Head || f.j.cp.Totals.Day != "2026-12-02" || f.j.cp.Totals.Payouts != 2 {
		t.Fatalf("daily checkpoint: %+v", f.j.cp)
	}
	cp, err := f.j.Checkpoint()
	if err != nil || cp.Seq != 3 || cp.Totals.Day != "2026-12-03" || cp.Totals.Payouts != 1 {
		t.Fatalf("on demand: %+v %v", cp, err)
	}
	if err := cp.Verify(f.j.PublicKey()); err != nil {
		t.Fatal(err)
	}
	cp.Totals.PayoutsAmount++
	if cp.Verify(f.j.PublicKey()) == nil {
		t.Fatal("altered checkpoint verifies")
	}
	// Off across midnight: the checkpoint of the day that ended is made at open.
	f.append(t, payoutN(4))
	f.clock.Advance(24 * time.Hour)
	f.reopen(t)
	if f.j.cp == nil || f.j.cp.Seq != 4 || f.j.cp.Totals.Day != "2026-12-03" || f.j.cp.Totals.Payouts != 2 {
		t.Fatalf("checkpoint at open: %+v", f.j.cp)
	}
	rep, err := f.j.Verify()
	if err != nil || rep.Checkpoints != 3 || rep.LastSigned != 4 || rep.Days != 2 {
		t.Fatalf("verify: %v %v", rep, err)
	}
}

func TestDeviceKeyFiles(t *testing.T) {
	f := newFixture(t)
	st, err := os.Stat(filepath.Join(f.dir, DeviceKeyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("device key: %v %v", st, err)
	}
	pub, err := os.ReadFile(filepath.Join(f.dir, DevicePubFile))
	if err != nil || !bytes.HasPrefix(pub, []byte("pos-ed25519-public ")) {
		t.Fatalf("device pub: %q %v", pub, err)
	}
	k1 := f.j.PublicKey()
	f.reopen(t)
	if !bytes.Equal(k1, f.j.PublicKey()) {
		t.Fatal("device key changed on reopen")
	}
	f.j.Close()
	os.Chmod(filepath.Join(f.dir, DeviceKeyFile), 0o644)
	if _, err := Open(f.dir, f.opts()); err == nil {
		t.Fatal("opened with a world-readable device key")
	}
	os.Chmod(filepath.Join(f.dir, DeviceKeyFile), 0o600)
	f.j = nil
	f.reopen(t)
}

func TestReadOnlyOpenWritesNothing(t *testing.T) {
	f := newFixture(t)
	for i := range 5 {
		f.append(t, payoutN(i))
	}
	f.j.Close()
	before := fileSum(t, f.dir)
	st0, _ := os.Stat(filepath.Join(f.dir, DBFile))
	ro, err := Open(f.dir, Options{ReadOnly: true, Clock: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := ro.Health(); err != nil {
		t.Fatal(err)
	}
	if _, err := ro.Append(payoutN(9)); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("append on read-only: %v", err)
	}
	if _, err := ro.Checkpoint(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("checkpoint on read-only: %v", err)
	}
	var buf bytes.Buffer
	if err := ro.WriteCSV(&buf, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ro.Verify(); err != nil {
		t.Fatal(err)
	}
	ro.Close()
	st1, _ := os.Stat(filepath.Join(f.dir, DBFile))
	if fileSum(t, f.dir) != before || !st1.ModTime().Equal(st0.ModTime()) {
		t.Fatal("a read-only open changed the file")
	}
	f.j = nil
	f.reopen(t)
}

func TestExports(t *testing.T) {
	f := newFixture(t)
	f.append(t, Entry{Kind: KindSale, Ticket: codes.TicketID{Block: 42, Pack: 7}, Amount: 2000, Receipts: []string{"V1"}})
	f.clock.Advance(time.Hour)
	f.append(t, payoutN(5))
	f.append(t, Entry{Kind: KindConfigChange, Detail: `limit; "150"`})
	var csvOut, jsonOut bytes.Buffer
	if err := f.j.WriteCSV(&csvOut, testStart.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csvOut.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "id;terminal;seq;") {
		t.Fatalf("csv: %q", csvOut.String())
	}
	if !strings.Contains(lines[1], ";payout;0001/0000000/6;6;30,00;R0001/0000000/6;"+payoutN(5).Code.String()+";") ||
		!strings.Contains(lines[1], "2026-12-02T10:30:00+01:00") {
		t.Fatalf("csv payout row: %q", lines[1])
	}
	if !strings.Contains(lines[2], `"limit; ""150"""`) {
		t.Fatalf("csv quoting: %q", lines[2])
	}
	if err := f.j.WriteJSONL(&jsonOut, time.Time{}); err != nil {
		t.Fatal(err)
	}
	jl := strings.Split(strings.TrimSpace(jsonOut.String()), "\n")
	if len(jl) != 3 || !strings.Contains(jl[0], `"ticket":"0042/0000007"`) || !strings.Contains(jl[0], `"amount_cents":2000`) ||
		!strings.Contains(jl[1], `"code":"`+payoutN(5).Code.String()+`"`) {
		t.Fatalf("jsonl: %s", jsonOut.String())
	}
	if s := (Record{Entry: payoutN(5), Terminal: "T", Seq: 1}).String(); strings.Contains(s, payoutN(5).Code.String()) {
		t.Fatalf("String shows the code: %s", s)
	}
	if Euros(3000) != "30,00" || Euros(5) != "0,05" || Euros(123456) != "1234,56" {
		t.Fatal("Euros")
	}
}

func TestTail(t *testing.T) {
	f := newFixture(t)
	for i := range 5 {
		f.append(t, payoutN(i))
	}
	rs, err := f.j.Tail(2)
	if err != nil || len(rs) != 2 || rs[0].Seq != 4 || rs[1].Seq != 5 {
		t.Fatalf("tail: %v %v", rs, err)
	}
}

func TestKindNames(t *testing.T) {
	for k := KindSale; k < kindEnd; k++ {
		if p, err := ParseKind(k.String()); err != nil || p != k {
			t.Fatalf("%d: %q", k, k.String())
		}
	}
	if Kind(0).Valid() || kindEnd.Valid() {
		t.Fatal("out-of-range kind valid")
	}
}

// TestLogsNeverHoldTheCode appends, refuses and reopens a damaged journal with a
// debug-level logger: no line holds a validation code.
func TestLogsNeverHoldTheCode(t *testing.T) {
	var logs bytes.Buffer
	f := &fixture{dir: t.TempDir(), clock: clockwork.NewFakeClockAt(testStart)}
	o := Options{Terminal: "T0042", Clock: f.clock, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	j, err := Open(f.dir, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := j.Append(payoutN(i)); err != nil {
			t.Fatal(err)
		}
	}
	j.Append(payoutN(1))
	j.Append(Entry{Kind: KindRefused, Code: payoutN(7).Code})
	j.Close()
	tamper(t, f.dir, resealed(2, func(r *Record) { r.Amount++ }))
	j, err = Open(f.dir, o)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(payoutN(5))
	j.Close()
	if !strings.Contains(logs.String(), "no-payout state") {
		t.Fatalf("damage not logged:\n%s", logs.String())
	}
	for i := range 8 {
		if strings.Contains(logs.String(), payoutN(i).Code.String()) {
			t.Fatalf("a log line holds the validation code of ticket %d:\n%s", i, logs.String())
		}
	}
}
