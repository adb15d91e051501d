package fleet

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
)

// decideOn is what the terminal decides on a claim's answer (validate/decide): a winner
// of amount within the pay limits, the offline limit per ticket perTicket, the offline
// total total, the unconfirmed total read from exp (nil: untracked).
func decideOn(c Claimer, err error, amount, perTicket, total int64, exp Exposure) (decide.Decision, *TakenError) {
	in := decide.Input{
		Ledger: decide.Ledger{Lookup: decide.LookupWinner, Prize: amount},
		Limits: decide.Limits{PerTicket: 1 << 40, PerDay: 1 << 40, OfflinePerTicket: perTicket, OfflineTotal: total},
	}
	var taken *TakenError
	in.Fleet, taken = Answer(c, err)
	in.Journal.Exposure = decide.ExposureUntracked
	if exp != nil {
		sum, err := exp.Unclaimed()
		in.Journal.Unconfirmed, in.Journal.Exposure = sum, decide.ExposureKnown
		if err != nil {
			in.Journal.Exposure = decide.ExposureUnreadable
		}
	}
	return decide.Decide(in), taken
}

type unclaimed struct {
	v   int64
	err error
}

func (u unclaimed) Unclaimed() (int64, error) { return u.v, u.err }

func TestAnswer(t *testing.T) {
	taken := &TakenError{Holder: Claim{Terminal: "T9"}}
	for _, c := range []struct {
		c    Claimer
		err  error
		want decide.Fleet
	}{
		{&Fake{}, nil, decide.FleetWon},
		{&Fake{}, fmt.Errorf("x: %w", taken), decide.FleetPaidElsewhere},
		{&Fake{}, fmt.Errorf("claim: %w", ErrOffline), decide.FleetUnreachable},
		{OfflineOnly{}, fmt.Errorf("claim: %w", ErrOffline), decide.FleetOfflineOnly},
		{&Fake{}, errors.New("bad reply"), decide.FleetFailed},
		{&Fake{}, fmt.Errorf("x: %w", &RefusedError{Reason: RefusedLoser}), decide.FleetRefused},
		{&Fake{}, &RefusedError{Reason: RefusedRateLimited}, decide.FleetRefused}, // never paid unconfirmed
		{&Fake{}, &PaidBeforeError{Holder: Claim{Terminal: "T1"}}, decide.FleetPaidBefore},
	} {
		a, h := Answer(c.c, c.err)
		if a != c.want || (a == decide.FleetPaidElsewhere || a == decide.FleetPaidBefore) != (h != nil) {
			t.Errorf("Answer(%T, %v) = %v %v, want %v", c.c, c.err, a, h, c.want)
		}
	}
}

func TestDecideOnClaim(t *testing.T) {
	taken := &TakenError{Holder: Claim{Terminal: "T9"}}
	for _, c := range []struct {
		err    error
		amount int64
		want   decide.Reason
	}{
		{nil, 50000, decide.Winner},
		{fmt.Errorf("x: %w", taken), 100, decide.PaidElsewhere},
		{fmt.Errorf("claim: %w", ErrOffline), 10000, decide.Unconfirmed},
		{fmt.Errorf("claim: %w", ErrOffline), 10001, decide.OfflineOverLimit},
		{errors.New("bad reply"), 100, decide.ClaimFailed},
		{fmt.Errorf("x: %w", &RefusedError{Reason: RefusedLoser}), 100, decide.RefusedByFleet},
		{&RefusedError{Reason: RefusedRateLimited}, 100, decide.RefusedByFleet},
	} {
		d, _ := decideOn(&Fake{}, c.err, c.amount, 10000, 0, nil)
		if d.Reason != c.want {
			t.Errorf("%v, %d: %v, want %v", c.err, c.amount, d, c.want)
		}
	}
}

func TestFakeAndOfflineOnly(t *testing.T) {
	code := func(pack uint32) codes.ValidationCode {
		return codes.ValidationCodeOf(codes.TicketID{Block: 7, Pack: pack, Position: 1}, [codes.SecretSize]byte{1})
	}
	id := code(1)
	f := &Fake{Terminal: "T1", Held: map[codes.TicketID]string{{Block: 7, Pack: 2, Position: 1}: "T9"},
		Refused: map[codes.TicketID]string{{Block: 7, Pack: 3, Position: 1}: RefusedLoser}}
	if _, err := f.Claim(context.Background(), id, 100); err != nil {
		t.Fatal(err)
	}
	_, err := f.Claim(context.Background(), code(3), 100)
	var refused *RefusedError
	if d, _ := decideOn(f, err, 100, 100, 0, nil); d.Reason != decide.RefusedByFleet || !errors.As(err, &refused) || refused.Reason != RefusedLoser {
		t.Fatalf("refused ticket: %v %v", d, err)
	}
	_, err = f.Claim(context.Background(), code(2), 100)
	if d, h := decideOn(f, err, 100, 100, 0, nil); d.Reason != decide.PaidElsewhere || h.Holder.Terminal != "T9" {
		t.Fatalf("held ticket: %v %v", d, h)
	}
	_, err = OfflineOnly{}.Claim(context.Background(), id, 100)
	if d, _ := decideOn(OfflineOnly{}, err, 100, 100, 0, nil); d != (decide.Decision{Action: decide.Pay, Reason: decide.Unconfirmed}) {
		t.Fatalf("offline only: %v", d)
	}
}

// TestDecideOfflineTotal: out of reach, a payout within the limit per ticket is refused
// when it would take the unclaimed unconfirmed payouts past the offline total, and when
// that total cannot be read (fail closed); without a reader (a terminal on its own) there
// is no total cap.
func TestDecideOfflineTotal(t *testing.T) {
	offline := fmt.Errorf("claim: %w", ErrOffline)
	for _, c := range []struct {
		amount, perTicket, total int64
		exp                      Exposure
		want                     decide.Reason
	}{
		{100_00, 100_00, 1000_00, unclaimed{900_00, nil}, decide.Unconfirmed},
		{100_00, 100_00, 1000_00, unclaimed{900_01, nil}, decide.OfflineOverTotal},
		{5_00, 100_00, 1000_00, unclaimed{0, errors.New("journal")}, decide.OfflineOverTotal},
		{100_01, 100_00, 1000_00, unclaimed{0, nil}, decide.OfflineOverLimit},
		{100_00, 100_00, 0, nil, decide.Unconfirmed},
	} {
		if d, _ := decideOn(&Fake{}, offline, c.amount, c.perTicket, c.total, c.exp); d.Reason != c.want {
			t.Errorf("amount %d, %+v: %v, want %v", c.amount, c, d, c.want)
		}
	}
	if d, _ := decideOn(&Fake{}, nil, 100_00, 0, 0, unclaimed{0, errors.New("never read")}); d.Reason != decide.Winner {
		t.Errorf("in reach: %v", d)
	}
}
