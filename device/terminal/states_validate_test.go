package terminal_test

import (
	"testing"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

func TestStateValidationWinnerIsOffered(t *testing.T) {
	r := newRig(t)
	code, v := winner(t, 5_00)
	next := step(t, r, terminal.ValidationState(validationCode(t, code)))
	wantState(t, next, "pay-offer")
	if got, _ := terminal.VerdictOf(next); got.Amount() != 5_00 || got.Ticket != v.Ticket {
		t.Fatalf("offer %+v", got)
	}
	if n := len(records(t, r, journal.KindRefused)); n != 0 {
		t.Errorf("%d refusals", n)
	}
}

// A winner above the per-ticket limit, or one that takes the day above its limit, is
// claimed, not offered.
func TestStateValidationAboveLimitsIsClaimed(t *testing.T) {
	code, _ := winner(t, 30_00)
	for name, cfg := range map[string]terminal.Config{
		"per-ticket": {PerTicket: 10_00},
		"per-day":    {PerTicket: 100_00, PerDay: 20_00},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, func(o *terminaltest.Options) { o.Config = cfg })
			wantState(t, step(t, r, terminal.ValidationState(validationCode(t, code))), "claim")
		})
	}
}

func TestStateValidationLoserIsNotJournalled(t *testing.T) {
	r := newRig(t)
	code, err := blk(t).Loser()
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, step(t, r, terminal.ValidationState(validationCode(t, code))), "result:loser")
	if n := len(records(t, r, journal.KindRefused)); n != 0 {
		t.Errorf("%d refusals for a loser", n)
	}
}

// Every refusal of the ledger or the status list is journalled with its reason and the
// ticket, never the code, and nothing is paid.
func TestStateValidationRefusals(t *testing.T) {
	code, v := winner(t, 5_00)
	forged, err := blk(t).Forged()
	if err != nil {
		t.Fatal(err)
	}
	other := codes.ValidationCodeOf(codes.TicketID{Block: 99, Pack: 1, Position: 1}, v.Code.Secret)
	empty, _ := ledger.NewSet()
	for _, c := range []struct {
		name string
		code string
		opt  func(*terminaltest.Options)
		want decide.Reason
	}{
		{"forged", forged, nil, decide.Forged},
		{"unknown-block", other.String(), nil, decide.UnknownBlock},
		{"no-ledger", code, func(o *terminaltest.Options) { o.Ledgers = empty }, decide.NoLedger},
		{"void-pack", code, func(o *terminaltest.Options) { o.Status = packState(ledger.PackVoid) }, decide.VoidPack},
		{"stolen-pack", code, func(o *terminaltest.Options) { o.Status = packState(ledger.PackStolen) }, decide.StolenPack},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []func(*terminaltest.Options)
			if c.opt != nil {
				opts = append(opts, c.opt)
			}
			r := newRig(t, opts...)
			next := step(t, r, terminal.ValidationState(validationCode(t, c.code)))
			if next.Name() != "result:"+c.want.String() {
				t.Fatalf("next %s, want result:%s", next.Name(), c.want)
			}
			rs := records(t, r, journal.KindRefused)
			if len(rs) != 1 || rs[0].Reason != c.want.String() || rs[0].HasCode() {
				t.Fatalf("refusals %+v", rs)
			}
			if n := len(records(t, r, journal.KindPayout)); n != 0 {
				t.Errorf("%d payouts", n)
			}
		})
	}
}

// packState is a status list in which every pack is in state s.
type packState ledger.PackState

func (s packState) State(uint16, uint32) ledger.PackState { return ledger.PackState(s) }

// Repeated forged codes lock validation: the lock is journalled and every code, even a
// winner, is refused while it holds.
func TestStateValidationLocksAfterForgedCodes(t *testing.T) {
	r := newRig(t)
	forged, err := blk(t).Forged()
	if err != nil {
		t.Fatal(err)
	}
	var next terminal.State
	for range 5 {
		next = step(t, r, terminal.ValidationState(validationCode(t, forged)))
	}
	wantState(t, next, "result:locked")
	if locks := records(t, r, journal.KindLock); len(locks) != 1 || locks[0].Detail != "1m0s" {
		t.Fatalf("locks %+v", locks)
	}
	code, _ := winner(t, 5_00)
	wantState(t, step(t, r, terminal.ValidationState(validationCode(t, code))), "result:locked")
	rs := records(t, r, journal.KindRefused)
	if last := rs[len(rs)-1]; last.Reason != decide.Locked.String() {
		t.Errorf("last refusal %q", last.Reason)
	}
}

// A ticket paid here is refused as already paid (journalled); one claimed here gets its
// claim receipt again (a reprint), never a second claim.
func TestStateValidationPaidOrClaimedBefore(t *testing.T) {
	code, v := winner(t, 5_00)
	r := newRig(t)
	run(t, r, terminal.PayState(v), "result:paid")
	next := step(t, r, terminal.ValidationState(validationCode(t, code)))
	wantState(t, next, "result:already-paid")
	if rs := records(t, r, journal.KindRefused); len(rs) != 1 || rs[0].Reason != decide.PaidHere.String() {
		t.Fatalf("refusals %+v", rs)
	}

	big, bv := winner(t, 30_00)
	r = newRig(t, func(o *terminaltest.Options) { o.Config.PerTicket = 10_00 })
	run(t, r, terminal.ClaimState(bv), "result:claim")
	next = step(t, r, terminal.ValidationState(validationCode(t, big)))
	wantState(t, next, "reprint")
	wantState(t, terminal.Then(next), "result:claimed-again")
	if n := len(records(t, r, journal.KindClaim)); n != 1 {
		t.Errorf("%d claims", n)
	}
}
