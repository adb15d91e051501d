package fleet

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

func TestDecide(t *testing.T) {
	taken := &TakenError{Holder: Claim{Terminal: "T9"}}
	for _, c := range []struct {
		err    error
		amount int64
		want   Decision
	}{
		{nil, 50000, Pay},
		{fmt.Errorf("x: %w", taken), 100, RefusePaidElsewhere},
		{fmt.Errorf("claim: %w", ErrOffline), 10000, PayUnconfirmed},
		{fmt.Errorf("claim: %w", ErrOffline), 10001, RefuseOffline},
		{errors.New("bad reply"), 100, RefuseError},
		{fmt.Errorf("x: %w", &RefusedError{Reason: RefusedLoser}), 100, RefuseByFleet},
		{&RefusedError{Reason: RefusedRateLimited}, 100, RefuseByFleet}, // never paid unconfirmed
	} {
		d, h := Decide(c.err, c.amount, Offline{PerTicket: 10000})
		if d != c.want || (d == RefusePaidElsewhere) != (h != nil) {
			t.Errorf("Decide(%v, %d) = %v %v, want %v", c.err, c.amount, d, h, c.want)
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
	if d, _ := Decide(err, 100, Offline{PerTicket: 100}); d != RefuseByFleet || !errors.As(err, &refused) || refused.Reason != RefusedLoser {
		t.Fatalf("refused ticket: %v %v", d, err)
	}
	_, err = f.Claim(context.Background(), code(2), 100)
	if d, h := Decide(err, 100, Offline{PerTicket: 100}); d != RefusePaidElsewhere || h.Holder.Terminal != "T9" {
		t.Fatalf("held ticket: %v %v", d, h)
	}
	_, err = OfflineOnly{}.Claim(context.Background(), id, 100)
	if d, _ := Decide(err, 100, Offline{PerTicket: 100}); d != PayUnconfirmed {
		t.Fatalf("offline only: %v", d)
	}
}

// TestDecideOfflineTotal: out of reach, a payout within the limit per ticket is refused
// when it would take the unclaimed unconfirmed payouts past the offline total, and when
// that total cannot be read (fail closed); without a reader (a terminal on its own) there
// is no total cap.
func TestDecideOfflineTotal(t *testing.T) {
	offline := fmt.Errorf("claim: %w", ErrOffline)
	unclaimed := func(v int64, err error) func() (int64, error) { return func() (int64, error) { return v, err } }
	for _, c := range []struct {
		amount int64
		off    Offline
		want   Decision
	}{
		{100_00, Offline{PerTicket: 100_00, Total: 1000_00, Unclaimed: unclaimed(900_00, nil)}, PayUnconfirmed},
		{100_00, Offline{PerTicket: 100_00, Total: 1000_00, Unclaimed: unclaimed(900_01, nil)}, RefuseOfflineTotal},
		{5_00, Offline{PerTicket: 100_00, Total: 1000_00, Unclaimed: unclaimed(0, errors.New("journal"))}, RefuseOfflineTotal},
		{100_01, Offline{PerTicket: 100_00, Total: 1000_00, Unclaimed: unclaimed(0, nil)}, RefuseOffline},
		{100_00, Offline{PerTicket: 100_00, Total: 0}, PayUnconfirmed},
	} {
		if d, _ := Decide(offline, c.amount, c.off); d != c.want {
			t.Errorf("amount %d, %+v: %v, want %v", c.amount, c.off, d, c.want)
		}
	}
	if d, _ := Decide(nil, 100_00, Offline{Unclaimed: unclaimed(0, errors.New("never read"))}); d != Pay {
		t.Errorf("in reach: %v", d)
	}
}
