package decide

import "math"

// Decide says what a validation code gets. In order, the first that applies:
//
//  1. the ledger's verdict (Judge): anything but a winner is refused;
//  2. the journal: a ticket paid here is refused (PaidHere); one claimed here gets its
//     claim receipt again (ClaimedHere);
//  3. the limits: a prize above the limit per ticket, or one that takes the day's payouts
//     above the limit per day, gets a claim receipt;
//  4. the fleet: not asked yet, Ask; no fleet or the claim won, Pay; the fleet out of
//     reach, Pay unconfirmed within the offline limits (per ticket; the unconfirmed
//     total; nothing on a journal started afresh), Refuse above them; any other answer
//     refuses.
//
// The terminal calls it once on the scan (the fleet not asked) and once more after the
// retailer's OK, with the fleet's answer and the journal read again.
func Decide(in Input) Decision {
	if r := Judge(in.Ledger); r != Winner {
		return refuse(r)
	}
	j, l, prize := in.Journal, in.Limits, in.Ledger.Prize
	switch {
	case j.PaidHere:
		return refuse(PaidHere)
	case j.ClaimedHere:
		return Decision{Claim, ClaimedHere}
	case prize > l.PerTicket:
		return Decision{Claim, OverTicketLimit}
	case above(j.DayPayouts, prize, l.PerDay):
		return Decision{Claim, OverDayLimit}
	}
	switch in.Fleet {
	case FleetNotAsked:
		return Decision{Ask, AskFleet}
	case FleetNone, FleetWon:
		return Decision{Pay, Winner}
	case FleetOfflineOnly:
		if prize > l.OfflinePerTicket {
			return refuse(OfflineOverLimit)
		}
		return Decision{Pay, Unconfirmed}
	case FleetUnreachable:
		return offline(j, l, prize)
	case FleetPaidElsewhere:
		return refuse(PaidElsewhere)
	case FleetPaidBefore:
		return refuse(PaidBeforeReset)
	case FleetRefused:
		return refuse(RefusedByFleet)
	case FleetRestored:
		return refuse(JournalRestored)
	}
	return refuse(ClaimFailed) // FleetFailed, or an answer this package does not know
}

// offline decides a winner within the pay limits while the fleet is out of reach.
func offline(j Journal, l Limits, prize int64) Decision {
	switch {
	case prize > l.OfflinePerTicket:
		return refuse(OfflineOverLimit)
	case j.StartedAfresh:
		return refuse(OfflineAfterReset) // this journal does not know what the one before paid
	case j.Exposure == ExposureUntracked:
		return Decision{Pay, Unconfirmed}
	case j.Exposure != ExposureKnown, above(j.Unconfirmed, prize, l.OfflineTotal):
		return refuse(OfflineOverTotal)
	}
	return Decision{Pay, Unconfirmed}
}

// Judge is the ledger's verdict alone: Winner, or the reason of a refusal. The pack
// status list comes first (a void or stolen pack is refused whatever the ledger says), a
// winner needs a positive prize.
func Judge(l Ledger) Reason {
	switch l.Pack {
	case PackListed:
	case PackVoid:
		return VoidPack
	default: // PackStolen, or a state this package does not know
		return StolenPack
	}
	switch l.Lookup {
	case LookupWinner:
		if l.Prize > 0 {
			return Winner
		}
		return Loser
	case LookupLoser:
		return Loser
	case LookupUnknownBlock:
		return UnknownBlock
	case LookupForged:
		return Forged
	case LookupOutOfRange:
		return OutOfRange
	case LookupTampered:
		return LedgerTampered
	}
	return NoLedger
}

// above reports whether sum+add > limit, without overflow.
func above(sum, add, limit int64) bool {
	s := sum + add
	switch {
	case add > 0 && sum > math.MaxInt64-add:
		return true // the sum passes every limit
	case add < 0 && sum < math.MinInt64-add:
		return false
	}
	return s > limit
}
