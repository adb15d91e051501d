package fleet

import "errors"

// Decision is what the terminal does with a winning ticket after its claim.
type Decision uint8

const (
	// Pay: the claim is this terminal's; pay and journal the payout.
	Pay Decision = iota + 1
	// PayUnconfirmed: the fleet is unreachable and the amount is within the offline
	// limit: pay, journal the payout with journal.ReasonUnconfirmed.
	PayUnconfirmed
	// RefusePaidElsewhere: another terminal holds the claim ("DÉJÀ PAYÉ AILLEURS").
	RefusePaidElsewhere
	// RefuseOffline: the fleet is unreachable and the amount is above the offline limit.
	RefuseOffline
	// RefuseError: the claim failed otherwise (a bad reply): fail closed.
	RefuseError
)

func (d Decision) String() string {
	switch d {
	case Pay:
		return "pay"
	case PayUnconfirmed:
		return "pay-unconfirmed"
	case RefusePaidElsewhere:
		return "refuse-paid-elsewhere"
	case RefuseOffline:
		return "refuse-offline"
	case RefuseError:
		return "refuse-error"
	}
	return "decision(?)"
}

// Decide maps Claim's error and the amount to what the terminal does, with the holder
// when another terminal holds the claim. offlineLimit is [limits] offline_per_ticket, in
// cents.
func Decide(claimErr error, amount, offlineLimit int64) (Decision, *TakenError) {
	var taken *TakenError
	switch {
	case claimErr == nil:
		return Pay, nil
	case errors.As(claimErr, &taken):
		return RefusePaidElsewhere, taken
	case errors.Is(claimErr, ErrOffline):
		if amount <= offlineLimit {
			return PayUnconfirmed, nil
		}
		return RefuseOffline, nil
	}
	return RefuseError, nil
}
