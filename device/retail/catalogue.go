package retail

import (
	"errors"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
)

// Named is a screen with a name, for the catalogue.
type Named struct {
	Name   string
	Screen Screen
}

// Worst-case values the catalogue fills screens with: the longest each can be.
const (
	// MaxLot is the largest lot a ticket can win (game 7's top prize, 50 000 €).
	MaxLot = 50_000_00
	// MaxTerminalID is the longest terminal id the configuration accepts (16 characters).
	MaxTerminalID = "TERM-00000000001"
	// MaxJournalNumber is the largest journal record number a screen shows whole.
	MaxJournalNumber = 99_999_999
)

// Catalogue lists every screen the terminal shows, filled with the longest values it can
// hold, so that one test checks them all on both panel sizes, in every language.
func Catalogue() []Named {
	at := time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC)
	id := codes.TicketID{Block: codes.MaxBlock, Pack: codes.PacksPerBlock - 1, Position: 8}
	out := []Named{
		{"idle", Idle()}, {"all delivered", AllDeliveredScreen()}, {"data refused", DataRefusedScreen()}, {"ticket hint", TicketHint()},
		{"pack offer", PackOffer(codes.PacksPerBlock-1, 10_00)}, {"sold", Sold(codes.PacksPerBlock-1, 10_00)},
		{"sale cancelled", SaleCancelled()}, {"already sold", AlreadySold(at)},
		{"winner", WinnerScreen(MaxLot)}, {"winner small", WinnerScreen(3_00)}, {"paid", Paid(MaxLot)},
		{"pay cancelled", PayCancelled(MaxLot)}, {"claim", Claim(MaxLot)}, {"loser", LoserScreen()},
		{"already paid", AlreadyPaidScreen(at, MaxTerminalID)}, {"paid elsewhere", PaidElsewhereScreen(at, MaxTerminalID)},
		{"offline refused", OfflineRefusedScreen(MaxLot)}, {"claim failed", ClaimFailedScreen()}, {"journal restored", JournalRestoredScreen()},
		{"locked", LockedScreen(24 * time.Hour)},
		{"tamper", TamperLocked()}, {"unlocked", Unlocked()}, {"unlock refused", UnlockRefused()},
		{"start read-only", StartFaultScreen(StartReadOnly)}, {"start disk full", StartFaultScreen(StartDiskFull)}, {"start failed", StartFaultScreen(StartFailed)},
		{"status refused", StatusRefusedScreen()}, {"ledger refused", LedgerRefusedScreen(id.Block)}, {"not a card", NotACard()}, {"card refused", CardRefused()}, {"guess pause", GuessPause(24 * time.Hour)}, {"unlock off", UnlockOff()},
		{"journal refused", JournalRefused()}, {"journal reset offer", JournalResetOffer()},
		{"journal reset restarting", JournalResetDone(true)}, {"journal reset", JournalResetDone(false)},
		{"report printed", ReportPrinted()}, {"duplicate printed", DuplicatePrinted()},
		{"nothing to reprint", NothingToReprint()}, {"claimed again", ClaimedAgain(MaxLot)},
		{"reprint choice", ReprintChoice(MaxJournalNumber, ClaimReceipt)}, {"reprint payout", ReprintChoice(MaxJournalNumber, PayoutReceipt)},
		{"reprint sale", ReprintChoice(MaxJournalNumber, SaleReceipt)}, {"read only", ReadOnly()}, {"busy", Busy()},
	}
	for m := Missing(1); m <= AllMissing; m++ {
		out = append(out, Named{"to install " + m.String(), MissingScreen(m)})
	}
	for o := PackNotDelivered; o <= PackNoLedger; o++ {
		out = append(out, Named{"pack " + o.String(), PackRefused(o)})
	}
	for _, o := range []decide.Reason{decide.Invalid, decide.Forged, decide.VoidPack, decide.StolenPack,
		decide.UnknownBlock, decide.OutOfRange, decide.NoLedger, decide.LedgerTampered} {
		out = append(out, Named{"refusal " + o.String(), Refusal(Verdict{Outcome: o, Ticket: id})})
	}
	for _, r := range codeReasons {
		v := Verdict{Outcome: decide.Invalid, Err: &codes.Error{Err: r.err}}
		out = append(out, Named{"invalid " + r.err.Error(), Refusal(v)}, Named{"not a code " + r.err.Error(), NotACode(v)})
	}
	out = append(out, Named{"not a code unreadable", NotACode(Verdict{Outcome: decide.Invalid, Err: errors.New("?")})})
	for f := FaultPaper; f <= FaultClock; f++ {
		out = append(out, Named{"fault " + faultKeys[f], FaultScreen(f, false)}, Named{"fault pending " + faultKeys[f], FaultScreen(f, true)})
	}
	return out
}
