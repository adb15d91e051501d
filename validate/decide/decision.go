package decide

import "fmt"

// Action is what the terminal does with the code.
type Action uint8

// Actions. The zero value is Refuse.
const (
	Refuse Action = iota // nothing is paid or claimed
	Pay                  // pay here (Reason Winner or Unconfirmed)
	Claim                // a claim receipt for a payment centre, nothing paid here
	Ask                  // a winner to offer: claim it with the fleet, then decide again
)

func (a Action) String() string {
	switch a {
	case Refuse:
		return "refuse"
	case Pay:
		return "pay"
	case Claim:
		return "claim"
	case Ask:
		return "ask"
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// Reason says why. It is the terminal's one vocabulary of what a validation code gets:
// Decide's reasons, and the two refusals the terminal makes before it asks (Invalid,
// Locked); device/retail shows each, by its name. Its String is a stable machine name:
// the refusals' names are the reasons the journal records (docs/journal.md).
type Reason uint8

// Reasons, by the action they go with.
const (
	_ Reason = iota
	// Pay.
	Winner      // a winner within every limit; the fleet's claim is this terminal's, or there is no fleet
	Unconfirmed // a winner paid while the fleet is out of reach, within the offline limits
	// Ask.
	AskFleet // a winner within the limits: the fleet is asked when the retailer confirms
	// Claim.
	OverTicketLimit // the prize is above the limit per ticket
	OverDayLimit    // the prize would take the day's payouts above the limit per day
	ClaimedHere     // claimed here before: the claim receipt again (DUPLICATA), no new claim
	// Refuse: the ledger's verdict.
	Loser
	VoidPack
	StolenPack
	NoLedger
	UnknownBlock
	Forged
	OutOfRange
	LedgerTampered
	// Refuse: the journal's facts.
	PaidHere // a payout of the ticket is in this journal
	// Refuse: the fleet's answer.
	PaidElsewhere     // another terminal holds the claim
	PaidBeforeReset   // this terminal paid it under an earlier journal
	OfflineOverLimit  // fleet out of reach, prize above the offline limit per ticket
	OfflineAfterReset // fleet out of reach, within the offline limit, but the journal was started afresh
	OfflineOverTotal  // fleet out of reach, the unconfirmed total would pass the offline total
	RefusedByFleet    // the claim service refused the claim
	ClaimFailed       // the claim failed otherwise
	JournalRestored   // the journal is behind what the fleet holds of it: restored from an earlier copy
	// Refuse, before anything is decided: the terminal's own, never Decide's.
	Invalid // not a well-formed validation code (a typo caught by the check character, …)
	Locked  // validation locked after repeated forged codes
	reasonEnd
)

// decideEnd ends the reasons Decide gives.
const decideEnd = Invalid

var reasonNames = [...]string{
	Winner: "winner", Unconfirmed: "unconfirmed", AskFleet: "ask-fleet",
	OverTicketLimit: "over-ticket-limit", OverDayLimit: "over-day-limit", ClaimedHere: "claimed-again",
	Loser: "loser", VoidPack: "void-pack", StolenPack: "stolen-pack", NoLedger: "no-ledger",
	UnknownBlock: "unknown-block", Forged: "forged", OutOfRange: "out-of-range", LedgerTampered: "ledger-tampered",
	PaidHere:      "already-paid",
	PaidElsewhere: "paid-elsewhere", PaidBeforeReset: "paid-before-reset", OfflineOverLimit: "fleet-offline",
	OfflineAfterReset: "offline-after-reset", OfflineOverTotal: "offline-total", RefusedByFleet: "fleet-refused",
	ClaimFailed: "claim-failed", JournalRestored: "journal-restored", Invalid: "invalid", Locked: "locked",
}

// String is the reason's stable machine name.
func (r Reason) String() string {
	if r > 0 && r < reasonEnd {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Decision is what a validation code gets, and why.
type Decision struct {
	Action Action
	Reason Reason
}

func (d Decision) String() string { return d.Action.String() + ":" + d.Reason.String() }

func refuse(r Reason) Decision { return Decision{Refuse, r} }
