package fleet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// insider is a retailer who is root on their own terminal: they hold its fleet
// credentials and send whatever claim request they like on its subject.
type insider struct {
	t  *testing.T
	nc *nats.Conn
	id string
}

func newInsider(t *testing.T, f *testFleet, id string) *insider {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(f.seeds[id])
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(f.urls[0], opt, nats.CustomInboxPrefix(fleet.InboxPrefix+id))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return &insider{t: t, nc: nc, id: id}
}

// claim sends req as is and returns the service's answer.
func (in *insider) claim(req fleet.ClaimRequest) fleet.ClaimReply {
	in.t.Helper()
	if req.At.IsZero() {
		req.At = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	}
	b, _ := json.Marshal(req)
	m, err := in.nc.Request(fleet.ClaimPrefix+in.id, b, 5*time.Second)
	if err != nil {
		in.t.Fatalf("claim request: %v", err)
	}
	rep, err := fleet.DecodeClaimReply(m.Data)
	if err != nil {
		in.t.Fatal(err)
	}
	return rep
}

// deliveries publishes the tests' retailers' lists: packs 0..49 of block 7 (and packs
// 0..9 of block 8, whose ledger the service does not hold) to retailer 100 (T000), packs
// 50..99 to retailer 101 (T001).
func deliveries(t *testing.T, f *testFleet) {
	t.Helper()
	f.publishStatus(t, f.block.Status(t, 100, 1,
		ledger.PackRange{Block: 7, First: 0, Count: 50, State: ledger.PackDelivered},
		ledger.PackRange{Block: 8, First: 0, Count: 10, State: ledger.PackDelivered}))
	f.publishStatus(t, f.block.Status(t, 101, 1, ledger.PackRange{Block: 7, First: 50, Count: 50, State: ledger.PackDelivered}))
}

// refusals reads the refusals stream.
func refusals(t *testing.T, js jetstream.JetStream) []fleet.Refusal {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var rs []fleet.Refusal
	bad, err := server.ReadRefusals(ctx, js, func(r fleet.Refusal) error { rs = append(rs, r); return nil })
	if err != nil || len(bad) > 0 {
		t.Fatalf("refusals stream: %v %v", err, bad)
	}
	return rs
}

// claimKeys is every key of the claims bucket.
func claimKeys(t *testing.T, f *testFleet) []string {
	t.Helper()
	keys, err := f.stores.Claims.Keys(context.Background())
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// guessed is a code of ticket id with a made-up secret.
func guessed(id codes.TicketID) codes.ValidationCode {
	return codes.ValidationCodeOf(id, [codes.SecretSize]byte{0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6})
}

// TestInsiderClaimsRefused: retailer 100, with their terminal T000's credentials, tries to
// claim what is not theirs to be paid: another retailer's tickets without a code (what
// pre-claimed 300 tickets in 0.47 s before claims carried codes), with a guessed code,
// with their real winning code; their own packs' tickets with a guessed code, a real
// losing code (online and as an "offline payout" being reconciled), a winning code at an
// inflated amount; a ticket of a block whose ledger the service does not hold. Every
// claim is refused with its reason, the claims bucket stays empty, and each refusal is
// recorded for the operator (terminal, retailer, ticket, reason), never with the code.
// The tickets' owners then claim them normally, at the ledger's amount.
func TestInsiderClaimsRefused(t *testing.T) {
	f := newRegistry(t, 2)
	f.noStatus = true
	f.start(t, 1, nil)
	deliveries(t, f)
	in := newInsider(t, f, "T000")

	theirs := ticketN(400) // pack 57: retailer 101's
	own := ticketN(10)     // pack 1: retailer 100's
	ownLoser := loserN(3)  // pack 6, position 8: loses
	ownBig := bigN(4)      // pack 9, position 8: wins 100 €
	otherBlock := codes.TicketID{Block: 8, Pack: 2, Position: 1}
	code := func(c codes.ValidationCode) string { return c.String() }
	for _, c := range []struct {
		name string
		req  fleet.ClaimRequest
		want string
	}{
		{"another retailer's ticket, no code", fleet.ClaimRequest{Ticket: theirs, Amount: lotOf(theirs)}, fleet.RefusedWrongCode},
		{"another retailer's ticket, guessed code", fleet.ClaimRequest{Ticket: theirs, Code: code(guessed(theirs)), Amount: lotOf(theirs)}, fleet.RefusedNotDelivered},
		{"another retailer's ticket, its real code", fleet.ClaimRequest{Ticket: theirs, Code: code(codeOf(theirs)), Amount: lotOf(theirs)}, fleet.RefusedNotDelivered},
		{"another ticket's code", fleet.ClaimRequest{Ticket: theirs, Code: code(codeOf(own)), Amount: lotOf(own)}, fleet.RefusedWrongCode},
		{"own pack, guessed code", fleet.ClaimRequest{Ticket: own, Code: code(guessed(own)), Amount: lotOf(own)}, fleet.RefusedWrongCode},
		{"own pack, real losing code", fleet.ClaimRequest{Ticket: ownLoser, Code: code(codeOf(ownLoser)), Amount: 150_00}, fleet.RefusedLoser},
		{"own pack, losing code paid offline", fleet.ClaimRequest{Ticket: ownLoser, Code: code(codeOf(ownLoser)), Amount: 150_00,
			Unconfirmed: true, Record: "T000/7"}, fleet.RefusedLoser},
		{"own pack, winner at an inflated amount", fleet.ClaimRequest{Ticket: ownBig, Code: code(codeOf(ownBig)), Amount: 150_00}, fleet.RefusedAmount},
		{"own pack, winner at a lowered amount", fleet.ClaimRequest{Ticket: own, Code: code(codeOf(own)), Amount: 1}, fleet.RefusedAmount},
		{"block the service holds no ledger of", fleet.ClaimRequest{Ticket: otherBlock, Code: code(guessed(otherBlock)), Amount: 100}, fleet.RefusedUnknownBlock},
	} {
		rep := in.claim(c.req)
		if rep.Result != fleet.ResultRefused || rep.Reason != c.want {
			t.Errorf("%s: %s %s (%s), want refused %s", c.name, rep.Result, rep.Reason, rep.Error, c.want)
		}
	}
	if keys := claimKeys(t, f); len(keys) != 0 {
		t.Fatalf("claims stored for the insider: %v", keys)
	}
	rs := refusals(t, f.js)
	if len(rs) != 10 {
		t.Fatalf("%d refusals recorded, want 10: %+v", len(rs), rs)
	}
	for _, r := range rs {
		if r.Terminal != "T000" || r.Retailer != 100 && r.Reason != fleet.RefusedWrongCode || r.Detail == "" || r.At.IsZero() {
			t.Errorf("refusal record %+v", r)
		}
	}
	if rs[7].Reason != fleet.RefusedAmount || rs[7].Lot != 100_00 || rs[7].Amount != 150_00 || rs[6].Record != "T000/7" {
		t.Errorf("records: inflated %+v, offline loser %+v", rs[7], rs[6])
	}
	raw := streamBytes(t, f.js, fleet.RefusalStream)
	for _, id := range []codes.TicketID{theirs, own, ownLoser, ownBig} {
		if bytes.Contains(raw, []byte(codeOf(id).String())) || bytes.Contains(raw, []byte(guessed(id).String())) {
			t.Fatal("a validation code is in the refusals stream")
		}
	}

	// The owners claim their tickets: the amount stored is the ledger's.
	a := f.terminal(t, "T000", f.urls[0], nil)
	b := f.terminal(t, "T001", f.urls[0], nil)
	waitOnline(t, a.c)
	waitOnline(t, b.c)
	ctx := context.Background()
	for _, c := range []struct {
		tm *terminal
		id codes.TicketID
	}{{b, theirs}, {a, own}, {a, ownBig}} {
		got, err := c.tm.c.Claim(ctx, codeOf(c.id), lotOf(c.id))
		if err != nil || got.Terminal != c.tm.id || got.Amount != lotOf(c.id) {
			t.Fatalf("%s claiming %v: %+v %v", c.tm.id, c.id, got, err)
		}
	}
	// The same terminal again: "yours". The insider, with the real code now: refused
	// still, before anything tells them who holds it.
	if _, err := b.c.Claim(ctx, codeOf(theirs), lotOf(theirs)); err != nil {
		t.Fatalf("owner claiming again: %v", err)
	}
	if rep := in.claim(fleet.ClaimRequest{Ticket: theirs, Code: code(codeOf(theirs)), Amount: lotOf(theirs)}); rep.Reason != fleet.RefusedNotDelivered || rep.Holder.Terminal != "" {
		t.Fatalf("insider after the owner: %+v", rep)
	}
}

// streamBytes is every message of a stream, concatenated.
func streamBytes(t *testing.T, js jetstream.JetStream, stream string) []byte {
	t.Helper()
	ctx := context.Background()
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info(ctx)
	var out []byte
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m.Data...)
	}
	return out
}

// TestInsiderFloodRateLimited: T000's owner floods the service with claims (300 of
// another retailer's tickets, as fast as one connection goes): past the terminal's burst
// every claim is refused rate-limited without being looked at, the flood is recorded as
// one record at once and one with the count of the rest when the terminal is back under
// its limit; another terminal is not slowed; refilled tokens let T000 claim again.
func TestInsiderFloodRateLimited(t *testing.T) {
	clock := clockwork.NewFakeClock()
	f := newRegistry(t, 2)
	f.noStatus = true
	f.svc = func(o *server.ServiceOptions) { o.ClaimRate, o.ClaimBurst, o.Clock, o.Queue = 1, 10, clock, 512 }
	f.start(t, 1, nil)
	deliveries(t, f)
	in := newInsider(t, f, "T000")
	results := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 300 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := ticketN(400 + i)
			b, _ := json.Marshal(fleet.ClaimRequest{Ticket: id, Code: codeOf(id).String(), Amount: lotOf(id), At: time.Now()})
			key := "unanswered"
			if m, err := in.nc.Request(fleet.ClaimPrefix+in.id, b, time.Second); err == nil {
				rep, _ := fleet.DecodeClaimReply(m.Data)
				key = rep.Result + " " + rep.Reason
			}
			mu.Lock()
			results[key]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	// The burst's 10 are looked at (and refused: another retailer's); of the 290 over the
	// limit one is answered so, the others not at all (the clock stands still: less than
	// a second).
	if results["refused not-delivered"] != 10 || results["refused rate-limited"] != 1 || results["unanswered"] != 289 {
		t.Fatalf("flood: %v", results)
	}
	if keys := claimKeys(t, f); len(keys) != 0 {
		t.Fatalf("claims stored: %v", keys)
	}
	// T001 is not held back by T000's flood.
	b := f.terminal(t, "T001", f.urls[0], nil)
	waitOnline(t, b.c)
	if _, err := b.c.Claim(context.Background(), codeOf(ticketN(401)), lotOf(ticketN(401))); err != nil {
		t.Fatal(err)
	}
	// Two seconds later T000 has two tokens again: its own ticket is claimed.
	clock.Advance(2 * time.Second)
	if rep := in.claim(fleet.ClaimRequest{Ticket: ticketN(3), Code: codeOf(ticketN(3)).String(), Amount: lotOf(ticketN(3))}); rep.Result != fleet.ResultWon {
		t.Fatalf("after the flood: %+v", rep)
	}
	rs := refusals(t, f.js)
	limited, counted := 0, 0
	for _, r := range rs {
		if r.Reason == fleet.RefusedRateLimited {
			limited++
			counted += r.Count
		}
	}
	if len(rs) != 12 || limited != 2 || counted != 290 {
		t.Fatalf("%d records, %d rate-limited standing for %d refusals: %+v", len(rs), limited, counted, rs)
	}
}

// TestReconcileCarriesTheCode: a retailer journals "offline payouts" on their own terminal
// (root on it, the journal theirs to append to) — a real losing code at 150 €, a winner
// at an inflated amount — then a genuine one; reconciliation claims each with the code
// its record holds: the two are refused and recorded with their record, never stored,
// and do not hold back the genuine one, which is claimed at the ledger's amount.
func TestReconcileCarriesTheCode(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	tm := f.terminal(t, "T000", f.urls[0], nil)
	waitOnline(t, tm.c)
	loser, big, good := loserN(1), bigN(1), ticketN(5)
	mustAppend(t, tm.j, payout(loser, 150_00, true))
	mustAppend(t, tm.j, payout(big, 150_00, true))
	mustAppend(t, tm.j, payout(good, lotOf(good), true))
	ctx := context.Background()
	if err := tm.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := tm.c.Unclaimed(); err != nil || n != 0 {
		t.Fatalf("unclaimed after the round: %d %v", n, err)
	}
	if keys := claimKeys(t, f); len(keys) != 1 || keys[0] != fleet.ClaimKey(good) {
		t.Fatalf("claims %v, want the genuine payout's only", keys)
	}
	rs := refusals(t, f.js)
	if len(rs) != 2 || rs[0].Reason != fleet.RefusedLoser || rs[0].Record != "T000/1" || !rs[0].Unconfirmed ||
		rs[1].Reason != fleet.RefusedAmount || rs[1].Record != "T000/2" || rs[1].Lot != lotOf(big) {
		t.Fatalf("refusals %+v", rs)
	}
}

// TestStatusListMustVerify: the service believes only a status list signed by the
// operator: a list in the status bucket signed by another key (whoever put it there)
// delivers nothing, and claims of that retailer are refused not-delivered until the
// operator's list is published again.
func TestStatusListMustVerify(t *testing.T) {
	f := newRegistry(t, 1)
	f.noStatus = true
	f.svc = func(o *server.ServiceOptions) { o.StatusMaxAge = time.Nanosecond }
	f.start(t, 1, nil)
	in := newInsider(t, f, "T000")
	id := ticketN(20)
	req := fleet.ClaimRequest{Ticket: id, Code: codeOf(id).String(), Amount: lotOf(id)}
	if rep := in.claim(req); rep.Reason != fleet.RefusedNotDelivered {
		t.Fatalf("no list published: %+v", rep)
	}
	forger := fleettest.NewBlock(t, 7, 1, secretOf, tierOf) // another key
	if _, err := f.stores.Status.Put(context.Background(), server.StatusKey(100), forger.Status(t, 100, 99, f.block.Delivered())); err != nil {
		t.Fatal(err)
	}
	if rep := in.claim(req); rep.Reason != fleet.RefusedNotDelivered || !strings.Contains(rep.Error, "does not verify") {
		t.Fatalf("list signed by another key: %+v", rep)
	}
	f.publishStatus(t, f.block.Status(t, 100, 2, f.block.Delivered()))
	if rep := in.claim(req); rep.Result != fleet.ResultWon || rep.Holder.Amount != lotOf(id) {
		t.Fatalf("operator's list: %+v", rep)
	}
}
