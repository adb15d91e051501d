package fleet

import (
	"errors"

	"github.com/packterm/pos/validate/decide"
)

// Exposure is implemented by a Claimer that claims, once back in reach, what was paid
// unconfirmed (the Client): Unclaimed is the total of those payouts not yet claimed. The
// terminal reads it into decide.Journal when the fleet is out of reach.
type Exposure interface {
	Unclaimed() (int64, error)
}

// Answer names the answer of c's Claim (claimErr) as validate/decide takes it; what is
// then paid is decide.Decide's to say. It returns the holder when another terminal holds
// the claim (decide.FleetPaidElsewhere), or this one under an earlier journal
// (decide.FleetPaidBefore). OfflineOnly's claims are decide.FleetOfflineOnly: a terminal
// without a fleet, whose offline limit per ticket stands.
func Answer(c Claimer, claimErr error) (decide.Fleet, *TakenError) {
	var taken *TakenError
	var before *PaidBeforeError
	switch {
	case claimErr == nil:
		return decide.FleetWon, nil
	case errors.Is(claimErr, ErrRestored):
		return decide.FleetRestored, nil
	case errors.As(claimErr, &taken):
		return decide.FleetPaidElsewhere, taken
	case errors.As(claimErr, &before):
		return decide.FleetPaidBefore, &TakenError{Ticket: before.Ticket, Holder: before.Holder}
	case errors.Is(claimErr, ErrRefused):
		return decide.FleetRefused, nil
	case errors.Is(claimErr, ErrOffline):
		if _, alone := c.(OfflineOnly); alone {
			return decide.FleetOfflineOnly, nil
		}
		return decide.FleetUnreachable, nil
	}
	return decide.FleetFailed, nil
}
