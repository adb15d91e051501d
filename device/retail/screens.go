package retail

import (
	"time"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/validate/decide"
)

// The screens of the terminal, one function each; their words are in the locale (package
// device/locale). Every one is checked on 16×2 and 20×4, in every language, by
// TestEveryScreenFits with the longest values it can show (Catalogue).

// Idle is the screen at rest.
func Idle() Screen { return say("idle") }

// AllDeliveredScreen is shown at start when no pack status list is installed and every pack of
// the block counts as delivered (emulation only).
func AllDeliveredScreen() Screen { return say("all_delivered") }

// DataRefusedScreen is shown at start when the installed ledgers or pack status list failed
// their checks: nothing is sold or paid until a technician installs good ones.
func DataRefusedScreen() Screen { return say("data_refused") }

// StatusRefusedScreen is shown at rest and on each code while the pack status list is
// older than the newest one this terminal's journal says was installed, or gone while
// one was: nothing is judged, sold or paid until a technician installs the list again.
func StatusRefusedScreen() Screen { return say("status_refused") }

// LedgerRefusedScreen answers a code of a block whose installed ledger is older than the
// newest this terminal's journal says was installed for it: nothing is judged, sold or paid
// of that block until the ledger is installed again.
func LedgerRefusedScreen(block uint16) Screen { return say("ledger_refused", block) }

// LedgerTamperedScreen refuses a validation whose ledger bytes changed on disk since the
// ledger was verified: nothing is paid.
func LedgerTamperedScreen() Screen { return say("ledger_tampered") }

// TicketHint answers a ticket code (the barcode on the back): the prize is under the latex.
func TicketHint() Screen { return say("ticket_hint") }

// PackOffer asks to confirm the sale of a pack at price.
func PackOffer(pack uint32, price int64) Screen { return say("pack_offer", pack, locale.Amount(price)) }

// Sold confirms a sale.
func Sold(pack uint32, price int64) Screen { return say("sold", pack, locale.Amount(price)) }

// SaleCancelled is shown when the retailer cancels a sale.
func SaleCancelled() Screen { return say("sale_cancelled") }

// AlreadySold refuses a pack this terminal has sold before.
func AlreadySold(at time.Time) Screen { return say("already_sold", locale.Date(at)) }

// PackRefused refuses a sale for a reason of the pack itself.
func PackRefused(o PackOutcome) Screen {
	switch o {
	case PackNotDelivered, PackVoid, PackStolen, PackUnknownBlock, PackOutOfRange, PackNoLedger:
		return say(locale.Key("pack." + o.String()))
	}
	return say("sale_refused")
}

// WinnerScreen offers to pay a winning ticket within the limits.
func WinnerScreen(amount int64) Screen { return say("winner", locale.Amount(amount)) }

// Paid confirms a payout: recorded, receipts printed, drawer open.
func Paid(amount int64) Screen { return say("paid", locale.Amount(amount)) }

// PayCancelled is shown when the retailer declines to pay (an inquiry).
func PayCancelled(amount int64) Screen { return say("pay_cancelled", locale.Amount(amount)) }

// Claim answers a winner above the pay limit: a claim receipt, nothing paid here.
func Claim(amount int64) Screen { return say("claim", locale.Amount(amount)) }

// LoserScreen answers a losing ticket.
func LoserScreen() Screen { return say("loser") }

// AlreadyPaidScreen refuses a ticket this terminal has paid, saying when and where.
func AlreadyPaidScreen(at time.Time, terminal string) Screen {
	return say("already_paid", locale.Date(at), Bind(terminal))
}

// PaidElsewhereScreen: the fleet says another terminal holds the ticket's claim (it was
// paid there, or is being paid).
func PaidElsewhereScreen(at time.Time, terminal string) Screen {
	return say("paid_elsewhere", locale.Date(at), Bind(terminal))
}

// OfflineRefusedScreen: the fleet cannot be reached and the amount is above the offline
// limit; nothing is paid, the player may come back or go to a payment centre.
func OfflineRefusedScreen(amount int64) Screen { return say("offline_refused", locale.Amount(amount)) }

// FleetRefusedScreen: the fleet's claim service refused the claim (reason: fleet's
// Refused… names); nothing is paid. Over the terminal's claim rate, try again later;
// otherwise the operator has the refusal on record and the player goes to a payment centre.
func FleetRefusedScreen(reason string) Screen {
	if reason == "rate-limited" {
		return say("fleet_rate_limited")
	}
	return say("fleet_refused")
}

// JournalRestoredScreen: the terminal's journal is behind what the fleet holds of it (its
// data put back from an earlier copy): nothing is paid until a technician starts the
// journal afresh.
func JournalRestoredScreen() Screen { return say("journal_restored") }

// ClaimFailedScreen: the fleet answered a claim with an error; nothing is paid.
func ClaimFailedScreen() Screen { return say("claim_failed") }

// plainRefusals are the refused validation codes whose screen ("refusal."+name,
// textKey) takes no argument.
var plainRefusals = map[decide.Reason]bool{
	decide.Forged: true, decide.VoidPack: true, decide.StolenPack: true, decide.OutOfRange: true, decide.NoLedger: true,
}

// Refusal is the screen of a refused validation code: the ledger's verdicts and
// decide.Invalid (decide.Locked, decide.PaidHere and the fleet's refusals have screens
// of their own).
func Refusal(v Verdict) Screen {
	if plainRefusals[v.Outcome] {
		return say(textKey("refusal", v.Outcome))
	}
	switch v.Outcome {
	case decide.Invalid:
		return NotACode(v)
	case decide.UnknownBlock:
		return say(textKey("refusal", v.Outcome), v.Ticket.Block)
	case decide.LedgerTampered:
		return LedgerTamperedScreen()
	case decide.Loser:
		return LoserScreen()
	}
	return say("refusal.other")
}

// LockedScreen refuses validation while the brute-force lock holds; left is the time remaining.
func LockedScreen(left time.Duration) Screen { return say("locked", minutes(left)) }

// minutes is left rounded up to the minute.
func minutes(left time.Duration) int { return int((left + time.Minute - 1) / time.Minute) }

// NotACode answers a scan that is none of our codes (or a mistyped pack or ticket code).
func NotACode(v Verdict) Screen { return shortReason(v) }

// TamperLocked is shown from the moment the case is opened until a technician unlocks.
func TamperLocked() Screen { return say("tamper_locked") }

// JournalRefused is shown while the journal is refused (removed, emptied or replaced on a
// terminal that had one): nothing is sold or paid, and only a technician, with their
// token, starts a new journal.
func JournalRefused() Screen { return say("journal_refused") }

// JournalResetOffer asks the technician, once their token is taken, whether to start a
// new journal.
func JournalResetOffer() Screen { return say("journal_reset_offer") }

// JournalResetDone confirms the new journal; restarting says whether the terminal
// restarts by itself to open it (a board) or must be restarted (the emulator).
func JournalResetDone(restarting bool) Screen {
	if restarting {
		return say("journal_reset_restarting")
	}
	return say("journal_reset_restart")
}

// Unlocked confirms a technician's unlock.
func Unlocked() Screen { return say("unlocked") }

// UnlockRefused is shown when an unlock comes while the case is still open.
func UnlockRefused() Screen { return say("unlock_refused") }

// Fault is a hardware fault the terminal waits on. pending is set when a recorded payout's
// or sale's receipt waits for the fault to clear.
type Fault int

// Faults the terminal reports.
const (
	FaultPaper Fault = iota + 1
	FaultCover
	FaultOffline
	FaultPrinter
	FaultScanner
	FaultJournal
	// FaultDisplay: the panel does not answer (a board that wires its R/W line reads it
	// back); what the panel cannot show, the LEDs and the buzzer say.
	FaultDisplay
	// FaultStorage: the printer's spool or the terminal's state cannot be written (a full
	// or read-only filesystem): nothing is recorded that could not keep its receipts.
	FaultStorage
	// FaultClock: the clock is behind the journal's last record (journal.ErrClockBehind):
	// nothing is sold or paid until it is set right (a technician, or the fleet's time).
	FaultClock
)

var faultKeys = map[Fault]string{
	FaultPaper: "fault.paper", FaultCover: "fault.cover", FaultOffline: "fault.offline", FaultPrinter: "fault.printer",
	FaultScanner: "fault.scanner", FaultJournal: "fault.journal", FaultDisplay: "fault.display", FaultStorage: "fault.storage",
	FaultClock: "fault.clock",
}

// FaultScreen says what is wrong and, when a receipt waits, that the operation is recorded.
func FaultScreen(f Fault, pending bool) Screen {
	k, ok := faultKeys[f]
	if !ok {
		return Text("")
	}
	if pending {
		k += ".pending"
	}
	return say(locale.Key(k))
}

// Printed confirms the day's report.
func ReportPrinted() Screen { return say("printed.report") }

// DuplicatePrinted confirms a duplicate.
func DuplicatePrinted() Screen { return say("printed.duplicate") }

// ClaimedAgain answers a ticket claimed here before: its claim receipt is printed again,
// marked DUPLICATA; nothing is claimed or paid.
func ClaimedAgain(amount int64) Screen { return say("claimed_again", locale.Amount(amount)) }

// ReceiptKind is what a journal record's receipts are, as ReprintChoice names them.
type ReceiptKind string

// Receipt kinds.
const (
	PayoutReceipt ReceiptKind = "reprint.payout"
	ClaimReceipt  ReceiptKind = "reprint.claim"
	SaleReceipt   ReceiptKind = "reprint.sale"
)

// ReprintChoice offers a duplicate of the receipts of journal record seq (what: a payout,
// a sale, a claim): OK prints it, CANCEL goes back to the receipt before.
func ReprintChoice(seq uint64, what ReceiptKind) Screen {
	return say("reprint_choice", seq, locale.Key(what))
}

// NothingToReprint answers a reprint with no receipt yet.
func NothingToReprint() Screen { return say("nothing_to_reprint") }

// ReadOnly refuses an operation while the journal cannot record.
func ReadOnly() Screen { return say("read_only") }

// Busy is shown while something slow runs (printing a report).
func Busy() Screen { return say("busy") }
