package retail

import (
	"errors"
	"fmt"

	"github.com/packterm/pos/validate/codes"
)

// codeReasons are the French reasons of a malformed code: a short one for the screen, a
// sentence for posctl and receipts.
var codeReasons = []struct {
	err          error
	short, whole string
}{
	{codes.ErrCheck, "ERREUR DE SAISIE", "le caractère de contrôle ne correspond pas : code mal saisi ou mal lu"},
	{codes.ErrLength, "LONGUEUR FAUSSE", "le code n'a pas le bon nombre de caractères"},
	{codes.ErrCharacter, "SIGNE INTERDIT", "le code contient un caractère qui n'y figure jamais"},
	{codes.ErrRange, "HORS LIMITES", "un numéro du code (bloc, paquet ou position) sort des limites"},
	{codes.ErrInconsistent, "CODE INCOHÉRENT", "les champs du code ne concordent pas"},
	{codes.ErrVersion, "VERSION INCONNUE", "version de code inconnue de ce terminal"},
	{codes.ErrUnknownKind, "CODE INCONNU", "ce n'est ni un code de paquet, ni un code de ticket, ni un code de validation"},
	{codes.ErrSymbology, "CODE ÉTRANGER", "le symbole lu ne porte aucun de nos codes"},
	{codes.ErrEmpty, "CODE VIDE", "aucun caractère lu"},
}

func (v Verdict) shortReason() string {
	for _, r := range codeReasons {
		if errors.Is(v.Err, r.err) {
			return r.short
		}
	}
	return "CODE ILLISIBLE"
}

// Reason is the verdict's French explanation, one sentence (posctl ledger check).
func (v Verdict) Reason() string {
	switch v.Outcome {
	case Winner:
		return fmt.Sprintf("ticket %v, jeu %d « %s », ligne %d du tableau", v.Ticket, v.Result.Game.Number, v.Result.Game.Name, v.Result.Tier)
	case Loser:
		return fmt.Sprintf("ticket %v, jeu %d « %s »", v.Ticket, v.Result.Game.Number, v.Result.Game.Name)
	case Invalid:
		for _, r := range codeReasons {
			if errors.Is(v.Err, r.err) {
				return r.whole
			}
		}
		return "code illisible"
	case Forged:
		return fmt.Sprintf("faux code ou code mal saisi : le registre refuse le secret du ticket %v", v.Ticket)
	case VoidPack:
		return fmt.Sprintf("le paquet du ticket %v est annulé", v.Ticket)
	case StolenPack:
		return fmt.Sprintf("le paquet du ticket %v est déclaré volé", v.Ticket)
	case UnknownBlock:
		return fmt.Sprintf("aucun registre installé pour le bloc %d", v.Ticket.Block)
	case OutOfRange:
		return fmt.Sprintf("le ticket %v est hors du registre", v.Ticket)
	case NoLedger:
		return "aucun registre installé : validation impossible"
	case AlreadyPaid:
		return fmt.Sprintf("le ticket %v est déjà payé", v.Ticket)
	case Locked:
		return "validation bloquée après trop de codes faux"
	case LedgerTampered:
		return fmt.Sprintf("le registre du bloc %d a changé sur le disque depuis sa vérification : rien n'est payé, appelez le support", v.Ticket.Block)
	}
	return ""
}

// Headline is the verdict's first word as screens and posctl print it.
func (v Verdict) Headline() string {
	switch v.Outcome {
	case Winner:
		return "GAGNANT : " + Plain(Money(v.Amount()))
	case Loser:
		return "PERDANT"
	case AlreadyPaid:
		return "DÉJÀ PAYÉ"
	case Invalid:
		return "CODE INVALIDE"
	case Forged:
		return "CODE REFUSÉ"
	case VoidPack:
		return "PAQUET ANNULÉ"
	case StolenPack:
		return "PAQUET VOLÉ"
	case UnknownBlock:
		return "BLOC INCONNU"
	case OutOfRange:
		return "TICKET INCONNU"
	case NoLedger:
		return "PAS DE REGISTRE"
	case Locked:
		return "VALIDATION BLOQUÉE"
	case LedgerTampered:
		return "DONNÉES REFUSÉES"
	}
	return "?"
}

// Line is the verdict as one line: headline and reason.
func (v Verdict) Line() string { return v.Headline() + " (" + v.Reason() + ")" }
