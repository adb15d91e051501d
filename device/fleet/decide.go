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
	// RefuseOfflineTotal: the fleet is unreachable and, though within the offline limit
	// per ticket, the amount would take this terminal's unconfirmed payouts not yet claimed
	// fleet-wide past the offline total (or that total could not be read: fail closed).
	RefuseOfflineTotal
	// RefuseByFleet: the claim service refused the claim (RefusedError): the code does
	// not win per the operator's ledger, the amount differs, the pack is not this
	// retailer's, or the terminal is over its claim rate. Nothing is paid.
	RefuseByFleet
	// RefusePaidBefore: the claim is this terminal's own, made under an earlier journal
	// (PaidBeforeError): it paid the ticket before its journal was reset or its data
	// wiped ("DÉJÀ PAYÉ"). Nothing is paid.
	RefusePaidBefore
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
	case RefuseOfflineTotal:
		return "refuse-offline-total"
	case RefuseByFleet:
		return "refuse-by-fleet"
	case RefusePaidBefore:
		return "refuse-paid-before"
	}
	return "decision(?)"
}

// Offline bounds what is paid while the fleet is out of reach, in cents.
type Offline struct {
	PerTicket int64 // [limits] offline_per_ticket
	Total     int64 // [limits] offline_total: the cap on Unclaimed plus the amount
	// Unclaimed reads the total of this terminal's unconfirmed payouts not yet claimed
	// fleet-wide (Exposure); nil: nothing will claim them (a terminal on its own), no cap.
	Unclaimed func() (int64, error)
}

// Exposure is implemented by a Claimer that claims, once back in reach, what was paid
// unconfirmed (the Client): Unclaimed is the total of those payouts not yet claimed.
type Exposure interface {
	Unclaimed() (int64, error)
}

// Decide maps Claim's error and the amount to what the terminal does, with the holder
// when another terminal holds the claim, or this one under an earlier journal
// (RefusePaidBefore); off bounds a payout while the fleet is out of reach.
func Decide(claimErr error, amount int64, off Offline) (Decision, *TakenError) {
	var taken *TakenError
	var before *PaidBeforeError
	switch {
	case claimErr == nil:
		return Pay, nil
	case errors.As(claimErr, &taken):
		return RefusePaidElsewhere, taken
	case errors.As(claimErr, &before):
		return RefusePaidBefore, &TakenError{Ticket: before.Ticket, Holder: before.Holder}
	case errors.Is(claimErr, ErrRefused):
		return RefuseByFleet, nil
	case errors.Is(claimErr, ErrOffline):
		if amount > off.PerTicket {
			return RefuseOffline, nil
		}
		if off.Unclaimed != nil {
			if sum, err := off.Unclaimed(); err != nil || sum+amount > off.Total {
				return RefuseOfflineTotal, nil
			}
		}
		return PayUnconfirmed, nil
	}
	return RefuseError, nil
}
