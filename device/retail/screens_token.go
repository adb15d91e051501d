package retail

import (
	"fmt"
	"time"
)

// The screens of a terminal that waits for the technician's card (tamper-locked, or its
// journal refused): what a scan that is no card, a wrong card, a guess pause and a
// terminal with no token configured show.

// NotACard answers a scan that is not the technician's card while the terminal is locked:
// nothing is judged, sold or paid, and the scan is no guess at the token.
func NotACard() Screen {
	return Text("TERMINAL VERROUILLÉ", "CODE IGNORÉ", "CARTE DU TECHNICIEN").Or("VERROUILLÉ", "CARTE TECHNICIEN")
}

// CardRefused answers a technician's card (or token) that is not the configured one.
func CardRefused() Screen { return Text("CARTE REFUSÉE", "MAUVAIS JETON") }

// GuessPause says that after too many wrong cards none is tried for left (rounded up to
// the minute).
func GuessPause(left time.Duration) Screen {
	m := Bind(fmt.Sprintf("%d MIN", int((left+time.Minute-1)/time.Minute)))
	return Text("TERMINAL VERROUILLÉ", "TROP D'ESSAIS FAUX", "CARTE ACCEPTÉE DANS", m).
		Or("PAUSE "+m, "TROP D'ESSAIS")
}

// UnlockOff answers a technician's card on a terminal with no token configured
// ([technician] token_sha256): nothing can unlock it (fail closed).
func UnlockOff() Screen {
	return Text("DÉBLOCAGE IMPOSSIBLE", "AUCUN JETON CONFIGURÉ").Or("SANS JETON", "PAS DE DÉBLOCAGE")
}
