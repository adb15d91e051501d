package decide

// Pack is what the pack status list says of the ticket's pack.
type Pack uint8

// Pack states. The zero value is PackListed: a pack neither void nor stolen (or no list).
const (
	PackListed Pack = iota // neither void nor stolen (or no status list installed)
	PackVoid               // the pack is void: its tickets are refused
	PackStolen             // the pack is reported stolen: its tickets are refused
	packEnd
)

// Lookup is the installed ledger's answer for the code.
type Lookup uint8

// Ledger answers. The zero value refuses (fail closed).
const (
	LookupNone         Lookup = iota // no ledger installed (or it could not answer)
	LookupWinner                     // the code is genuine and wins Input.Prize
	LookupLoser                      // the code is genuine and loses
	LookupUnknownBlock               // no ledger for the code's block
	LookupForged                     // the ledger refuses the code's secret
	LookupOutOfRange                 // the ledger has no such pack or position
	LookupTampered                   // the ledger's bytes changed since they were verified
	lookupEnd
)

// Ledger is the verdict on a validation code: the pack status list's state and the
// ledger's answer (device/retail.JudgeCode reads them).
type Ledger struct {
	Pack   Pack
	Lookup Lookup
	Prize  int64 // cents; the lot of a winner (0 otherwise)
}

// Journal is what this terminal's journal knows of the ticket and of the day.
type Journal struct {
	PaidHere    bool  // a payout of the ticket is in this journal
	ClaimedHere bool  // a claim of the ticket is in this journal (its receipt is out)
	DayPayouts  int64 // cents paid today, before this ticket
	// StartedAfresh: the journal was started afresh by a technician (its first record is
	// a journal reset) or that could not be read: it does not know the payouts of the one
	// before, so only the fleet can say a ticket was not paid then.
	StartedAfresh bool
	// Unconfirmed is this terminal's total of payouts made while the fleet was out of
	// reach and not yet claimed fleet-wide (cents), as far as Exposure says it is known.
	Unconfirmed int64
	Exposure    Exposure
}

// Exposure says whether the unconfirmed total is tracked.
type Exposure uint8

// Exposures. The zero value is ExposureUnreadable: the total cap refuses (fail closed).
const (
	ExposureUnreadable Exposure = iota // the total could not be read: nothing more is paid unconfirmed
	ExposureKnown                      // Journal.Unconfirmed holds the total
	ExposureUntracked                  // nothing claims them later (no fleet client): no total cap
	exposureEnd
)

// Limits are the pay limits, in cents ([limits] of the configuration).
type Limits struct {
	PerTicket int64 // a winner above it gets a claim receipt
	PerDay    int64 // a winner that takes the day's payouts above it gets a claim receipt
	// OfflinePerTicket: with the fleet out of reach, a winner above it is refused.
	OfflinePerTicket int64
	// OfflineTotal caps the unconfirmed payouts not yet claimed plus the next one.
	OfflineTotal int64
}

// Fleet is the fleet's answer to the ticket's claim.
type Fleet uint8

// Fleet answers. The zero value is FleetNotAsked: a winner is then offered, never paid.
const (
	FleetNotAsked      Fleet = iota // the claim is not made yet: Decide says Ask
	FleetNone                       // no fleet: nothing to claim
	FleetOfflineOnly                // no fleet, but the offline limit per ticket applies (fleet.OfflineOnly)
	FleetWon                        // the claim is this terminal's
	FleetPaidElsewhere              // another terminal holds the claim
	FleetPaidBefore                 // this terminal's own claim, made under an earlier journal
	FleetUnreachable                // the fleet is out of reach
	FleetRefused                    // the claim service refused the claim (loser, amount, pack, rate)
	FleetFailed                     // the claim failed otherwise (a bad reply)
	// FleetRestored: this terminal's journal is behind what the fleet holds of it (its
	// data put back from an earlier copy): nothing is paid, online or not, until a
	// technician starts the journal afresh.
	FleetRestored
	fleetEnd
)

// Input is everything Decide looks at.
type Input struct {
	Ledger  Ledger
	Journal Journal // read for a winner only: Decide ignores it otherwise
	Limits  Limits
	Fleet   Fleet
}
