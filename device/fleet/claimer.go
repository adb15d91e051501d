package fleet

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/packterm/pos/validate/codes"
)

// Claimer is what the terminal's state machine needs of the fleet: claim before paying,
// Notify after each journal append.
type Claimer interface {
	Claim(ctx context.Context, code codes.ValidationCode, amount int64) (Claim, error)
	Notify()
}

var (
	_ Exposure = (*Client)(nil)
	_ Claimer  = (*Client)(nil)
	_ Claimer  = OfflineOnly{}
	_ Claimer  = (*Fake)(nil)
)

// OfflineOnly is the Claimer of a terminal without a fleet ([fleet] url empty): every
// claim is ErrOffline, so only payouts within the offline limit are made, unconfirmed.
type OfflineOnly struct{}

// Claim always fails with ErrOffline.
func (OfflineOnly) Claim(_ context.Context, code codes.ValidationCode, _ int64) (Claim, error) {
	return Claim{}, fmt.Errorf("fleet: claim %v: %w (no fleet configured)", code.ID(), ErrOffline)
}

// Notify does nothing.
func (OfflineOnly) Notify() {}

// Fake is a Claimer for the terminal's tests: the first claim of a ticket wins for
// Terminal, unless Held names another holder, Before a claim of this terminal under an
// earlier journal or Refused a refusal; Err, when set, is returned instead.
type Fake struct {
	Terminal string
	Err      error                        // returned by every Claim when set (e.g. wrapping ErrOffline)
	Held     map[codes.TicketID]string    // tickets another terminal holds
	Before   map[codes.TicketID]time.Time // tickets this terminal claimed under an earlier journal, when
	Refused  map[codes.TicketID]string    // tickets the service refuses, with the reason (Refused…)
	At       time.Time                    // the holders' claim time

	mu       sync.Mutex
	Claims   []codes.TicketID // every ticket claimed, in order
	Notified int
}

// Claim records the claim and answers as the claim service would.
func (f *Fake) Claim(_ context.Context, code codes.ValidationCode, amount int64) (Claim, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := code.ID()
	f.Claims = append(f.Claims, id)
	if f.Err != nil {
		return Claim{}, f.Err
	}
	if why, ok := f.Refused[id]; ok {
		return Claim{}, &RefusedError{Ticket: id, Reason: why, Detail: "fake"}
	}
	if at, ok := f.Before[id]; ok {
		c := Claim{Terminal: f.Terminal, At: at, Amount: amount, Epoch: "earlier"}
		return c, &PaidBeforeError{Ticket: id, Holder: c, Epoch: "now"}
	}
	if f.Held == nil {
		f.Held = map[codes.TicketID]string{}
	}
	if h, ok := f.Held[id]; ok && h != f.Terminal {
		c := Claim{Terminal: h, At: f.At}
		return c, &TakenError{Ticket: id, Holder: c}
	}
	f.Held[id] = f.Terminal
	return Claim{Terminal: f.Terminal, At: f.At, Amount: amount}, nil
}

// Notify counts the calls.
func (f *Fake) Notify() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Notified++
}
