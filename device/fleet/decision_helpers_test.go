package fleet_test

import (
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/decide"
)

// decideOn is what the terminal decides on a claim's answer (validate/decide): a winner
// of amount within the pay limits, the offline limit per ticket perTicket, the offline
// total total, the unconfirmed total read from exp (nil: untracked).
func decideOn(c fleet.Claimer, err error, amount, perTicket, total int64, exp fleet.Exposure) (decide.Decision, *fleet.TakenError) {
	in := decide.Input{
		Ledger: decide.Ledger{Lookup: decide.LookupWinner, Prize: amount},
		Limits: decide.Limits{PerTicket: 1 << 40, PerDay: 1 << 40, OfflinePerTicket: perTicket, OfflineTotal: total},
	}
	var taken *fleet.TakenError
	in.Fleet, taken = fleet.Answer(c, err)
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
