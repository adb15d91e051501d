package retail

import (
	"fmt"
	"time"
)

// The screens of the terminal, one function each. Every one is checked on 16×2 and 20×4 by
// TestEveryScreenFits with the longest values it can show (Catalogue).

// Idle is the screen at rest.
func Idle() Screen { return Text("SCANNEZ UN CODE") }

// AllDeliveredScreen is shown at start when no pack status list is installed and every pack of
// the block counts as delivered (emulation only).
func AllDeliveredScreen() Screen {
	return Text("DÉMO SANS LISTE", "TOUS LES PAQUETS", "SONT LIVRÉS").Or("DÉMO : TOUS LES", "PAQUETS LIVRÉS")
}

// DataRefusedScreen is shown at start when the installed ledgers or pack status list failed
// their checks: nothing is sold or paid until a technician installs good ones.
func DataRefusedScreen() Screen {
	return Text("DONNÉES REFUSÉES", "APPELEZ LE SUPPORT").Or("DONNÉES REFUSÉES", "APPELEZ SUPPORT")
}

// LedgerTamperedScreen refuses a validation whose ledger bytes changed on disk since the
// ledger was verified: nothing is paid.
func LedgerTamperedScreen() Screen {
	return Text("DONNÉES REFUSÉES", "REGISTRE MODIFIÉ", "APPELEZ LE SUPPORT").Or("DONNÉES REFUSÉES", "REGISTRE MODIFIÉ")
}

// TicketHint answers a ticket code (the barcode on the back): the prize is under the latex.
func TicketHint() Screen { return Text("GRATTEZ ET SCANNEZ LE CODE") }

// PackOffer asks to confirm the sale of a pack at price.
func PackOffer(pack uint32, price int64) Screen {
	return Text(fmt.Sprintf("PAQUET %d", pack), "PRIX "+Money(price), "OK : VENDRE", "ANNULER : NON").
		Or("VENTE "+Money(price), "OK OU ANNULER")
}

// Sold confirms a sale.
func Sold(pack uint32, price int64) Screen {
	return Text("VENDU "+Money(price), fmt.Sprintf("PAQUET %d", pack))
}

// SaleCancelled is shown when the retailer cancels a sale.
func SaleCancelled() Screen { return Text("VENTE ANNULÉE") }

// AlreadySold refuses a pack this terminal has sold before.
func AlreadySold(at time.Time) Screen {
	return Text("PAQUET DÉJÀ VENDU", "LE "+Date(at), "VENTE REFUSÉE").Or("DÉJÀ VENDU", "LE "+Date(at))
}

// PackRefused refuses a sale for a reason of the pack itself.
func PackRefused(o PackOutcome) Screen {
	what := map[PackOutcome]string{
		PackNotDelivered: "PAQUET NON LIVRÉ", PackVoid: "PAQUET ANNULÉ", PackStolen: "PAQUET VOLÉ",
		PackUnknownBlock: "BLOC INCONNU", PackOutOfRange: "PAQUET INCONNU", PackNoLedger: "PAS DE REGISTRE",
	}[o]
	return Text(what, "VENTE REFUSÉE")
}

// WinnerScreen offers to pay a winning ticket within the limits.
func WinnerScreen(amount int64) Screen {
	return Text("GAGNANT", Money(amount), "OK : PAYER", "ANNULER : NON").
		Or("GAGNANT "+Money(amount), "OK : PAYER").
		Or(Money(amount), "OK : PAYER")
}

// Paid confirms a payout: recorded, receipts printed, drawer open.
func Paid(amount int64) Screen { return Text("PAYÉ "+Money(amount), "REÇUS IMPRIMÉS") }

// PayCancelled is shown when the retailer declines to pay (an inquiry).
func PayCancelled(amount int64) Screen {
	return Text("NON PAYÉ", "GAIN "+Money(amount), "TICKET À RENDRE").Or("NON PAYÉ", Money(amount))
}

// Claim answers a winner above the pay limit: a claim receipt, nothing paid here.
func Claim(amount int64) Screen {
	return Text("GAIN "+Money(amount), "AU-DELÀ DU PLAFOND", "REÇU DE RÉCLAMATION", "CENTRE DE PAIEMENT").
		Or("GAIN "+Money(amount), "CENTRE DE PAIEMENT").
		Or(Money(amount), "CENTRE PAIEMENT")
}

// LoserScreen answers a losing ticket.
func LoserScreen() Screen { return Text("PERDANT", "PAS DE GAIN") }

// AlreadyPaidScreen refuses a ticket this terminal has paid, saying when and where.
func AlreadyPaidScreen(at time.Time, terminal string) Screen {
	return Text("DÉJÀ PAYÉ", "LE "+Date(at), "TERMINAL "+Bind(terminal)).
		Or("DÉJÀ PAYÉ", "LE "+Date(at))
}

// PaidElsewhereScreen: the fleet says another terminal holds the ticket's claim (it was
// paid there, or is being paid).
func PaidElsewhereScreen(at time.Time, terminal string) Screen {
	return Text("DÉJÀ PAYÉ AILLEURS", "LE "+Date(at), "TERMINAL "+Bind(terminal)).
		Or("PAYÉ AILLEURS", "LE "+Date(at))
}

// OfflineRefusedScreen: the fleet cannot be reached and the amount is above the offline
// limit; nothing is paid, the player may come back or go to a payment centre.
func OfflineRefusedScreen(amount int64) Screen {
	return Text("GAIN "+Money(amount), "RÉSEAU INJOIGNABLE", "NON PAYÉ", "RÉESSAYEZ PLUS TARD").
		Or("RÉSEAU COUPÉ", "NON PAYÉ")
}

// FleetRefusedScreen: the fleet's claim service refused the claim (reason: fleet's
// Refused… names); nothing is paid. Over the terminal's claim rate, try again later;
// otherwise the operator has the refusal on record and the player goes to a payment centre.
func FleetRefusedScreen(reason string) Screen {
	if reason == "rate-limited" {
		return Text("PAIEMENT REFUSÉ", "TROP DE DEMANDES", "RÉESSAYEZ PLUS TARD").Or("NON PAYÉ", "RÉESSAYEZ")
	}
	return Text("PAIEMENT REFUSÉ", "PAR LE CENTRAL", "CENTRE DE PAIEMENT").Or("NON PAYÉ", "REFUS CENTRAL")
}

// ClaimFailedScreen: the fleet answered a claim with an error; nothing is paid.
func ClaimFailedScreen() Screen {
	return Text("PAIEMENT REFUSÉ", "ERREUR RÉSEAU", "RÉESSAYEZ PLUS TARD").Or("NON PAYÉ", "ERREUR RÉSEAU")
}

// Refusal is the screen of a refused validation code (Invalid, Forged, VoidPack, StolenPack,
// UnknownBlock, OutOfRange, NoLedger, Locked use their own functions below).
func Refusal(v Verdict) Screen {
	switch v.Outcome {
	case Invalid:
		return Text("CODE INVALIDE", v.shortReason())
	case Forged:
		return Text("CODE REFUSÉ", "NON AUTHENTIQUE")
	case VoidPack:
		return Text("PAQUET ANNULÉ", "TICKET REFUSÉ")
	case StolenPack:
		return Text("PAQUET VOLÉ", "TICKET REFUSÉ")
	case UnknownBlock:
		return Text("BLOC INCONNU", fmt.Sprintf("BLOC %d", v.Ticket.Block), "TICKET REFUSÉ").
			Or("BLOC INCONNU", fmt.Sprintf("BLOC %d", v.Ticket.Block))
	case OutOfRange:
		return Text("TICKET INCONNU", "HORS DU REGISTRE")
	case NoLedger:
		return Text("PAS DE REGISTRE", "NON VALIDABLE")
	case LedgerTampered:
		return LedgerTamperedScreen()
	case Loser:
		return LoserScreen()
	}
	return Text("CODE INVALIDE")
}

// LockedScreen refuses validation while the brute-force lock holds; left is the time remaining.
func LockedScreen(left time.Duration) Screen {
	m := int((left + time.Minute - 1) / time.Minute)
	return Text("VALIDATION BLOQUÉE", "TROP DE CODES FAUX", "REPRISE DANS "+Bind(fmt.Sprintf("%d MIN", m))).
		Or(Bind(fmt.Sprintf("BLOQUÉ %d MIN", m)), "TROP DE FAUX")
}

// NotACode answers a scan that is none of our codes (or a mistyped pack or ticket code).
func NotACode(v Verdict) Screen { return Text("CODE INVALIDE", v.shortReason()) }

// TamperLocked is shown from the moment the case is opened until a technician unlocks.
func TamperLocked() Screen {
	return Text("TERMINAL BLOQUÉ", "BOÎTIER OUVERT", "APPELEZ UN TECHNICIEN").Or("TERMINAL BLOQUÉ", "BOÎTIER OUVERT")
}

// JournalRefused is shown while the journal is refused (removed, emptied or replaced on a
// terminal that had one): nothing is sold or paid, and only a technician, with their
// token, starts a new journal.
func JournalRefused() Screen {
	return Text("JOURNAL EFFACÉ", "PAIEMENTS BLOQUÉS", "APPELEZ UN TECHNICIEN").Or("JOURNAL EFFACÉ", "PAIEMENT BLOQUÉ")
}

// JournalResetOffer asks the technician, once their token is taken, whether to start a
// new journal.
func JournalResetOffer() Screen {
	return Text("NOUVEAU JOURNAL ?", "OK : CRÉER", "ANNULER : NON").Or("NOUVEAU JOURNAL?", "OK OU ANNULER")
}

// JournalResetDone confirms the new journal; restarting says whether the terminal
// restarts by itself to open it (a board) or must be restarted (the emulator).
func JournalResetDone(restarting bool) Screen {
	if restarting {
		return Text("NOUVEAU JOURNAL", "CRÉÉ", "REDÉMARRAGE...").Or("NOUVEAU JOURNAL", "REDÉMARRAGE...")
	}
	return Text("NOUVEAU JOURNAL", "CRÉÉ", "REDÉMARREZ LE", "TERMINAL").Or("NOUVEAU JOURNAL", "REDÉMARREZ")
}

// Unlocked confirms a technician's unlock.
func Unlocked() Screen { return Text("TERMINAL DÉBLOQUÉ") }

// UnlockRefused is shown when an unlock comes while the case is still open.
func UnlockRefused() Screen {
	return Text("FERMEZ LE BOÎTIER", "AVANT DE DÉBLOQUER").Or("FERMEZ LE", "BOÎTIER")
}

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
)

// FaultScreen says what is wrong and, when a receipt waits, that the operation is recorded.
func FaultScreen(f Fault, pending bool) Screen {
	t := faultText[f]
	what, do := t[0], t[1]
	if f == FaultOffline || f == FaultPrinter {
		what += " " + do
		do = ""
	}
	if !pending {
		if do == "" {
			return Text(what)
		}
		return Text(what, do).Or(shortFault[f], shortDo[f])
	}
	return Text(what, "OPÉRATION ENREGISTRÉE", "REÇU EN ATTENTE").Or(what, "REÇU EN ATTENTE").Or(shortFault[f], "REÇU EN ATTENTE")
}

var faultText = map[Fault][2]string{
	FaultPaper:   {"PLUS DE PAPIER", "CHANGEZ LE ROULEAU"},
	FaultCover:   {"CAPOT OUVERT", "FERMEZ LE CAPOT"},
	FaultOffline: {"IMPRIMANTE", "HORS LIGNE"},
	FaultPrinter: {"IMPRIMANTE", "EN PANNE"},
	FaultScanner: {"LECTEUR ABSENT", "REBRANCHEZ-LE"},
	FaultJournal: {"JOURNAL EN DÉFAUT", "PAIEMENTS BLOQUÉS"},
	FaultDisplay: {"ÉCRAN EN PANNE", "APPELEZ LE SUPPORT"},
	FaultStorage: {"MÉMOIRE EN DÉFAUT", "RIEN N'EST FAIT"},
}

var shortDo = map[Fault]string{
	FaultPaper: "CHANGEZ ROULEAU", FaultCover: "FERMEZ-LE", FaultScanner: "REBRANCHEZ-LE", FaultJournal: "PAIEMENT BLOQUÉ",
	FaultDisplay: "APPELEZ SUPPORT", FaultStorage: "RIEN N'EST FAIT",
}

var shortFault = map[Fault]string{
	FaultPaper: "PAPIER VIDE", FaultCover: "CAPOT OUVERT", FaultOffline: "IMPRIMANTE OFF",
	FaultPrinter: "IMPRIMANTE HS", FaultScanner: "LECTEUR ABSENT", FaultJournal: "JOURNAL HS",
	FaultDisplay: "ÉCRAN HS", FaultStorage: "MÉMOIRE HS",
}

// Printed confirms a report or a duplicate.
func Printed(what string) Screen { return Text(what, "IMPRIMÉ") }

// ClaimedAgain answers a ticket claimed here before: its claim receipt is printed again,
// marked DUPLICATA; nothing is claimed or paid.
func ClaimedAgain(amount int64) Screen {
	return Text("DÉJÀ RÉCLAMÉ", "GAIN "+Money(amount), "DUPLICATA IMPRIMÉ", "CENTRE DE PAIEMENT").
		Or("DÉJÀ RÉCLAMÉ", "DUPLICATA")
}

// ReprintChoice offers a duplicate of the receipts of journal record seq (what: PAIEMENT,
// VENTE, RÉCLAMATION): OK prints it, CANCEL goes back to the receipt before.
func ReprintChoice(seq uint64, what string) Screen {
	n := fmt.Sprintf("REÇU N° %d", seq)
	return Text(n, what, "OK : DUPLICATA", "ANNULER : AVANT").Or(n, "OK OU ANNULER")
}

// NothingToReprint answers a reprint with no receipt yet.
func NothingToReprint() Screen { return Text("AUCUN REÇU", "À RÉIMPRIMER") }

// ReadOnly refuses an operation while the journal cannot record.
func ReadOnly() Screen {
	return Text("JOURNAL EN DÉFAUT", "OPÉRATION REFUSÉE").Or("JOURNAL EN PANNE", "REFUSÉ")
}

// Busy is shown while something slow runs (printing a report).
func Busy() Screen { return Text("IMPRESSION...") }
