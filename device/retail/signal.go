package retail

import "github.com/packterm/pos/validate/decide"

// Signal is the LED and beep of an outcome.
type Signal int

// Signals.
const (
	SignalNone      Signal = iota
	SignalOK               // green LED, short beep: sold, paid, winner
	SignalRefused          // red LED, double beep: loser, refusal
	SignalAttention        // red LED, triple beep: fault, tamper, lock
)

// String names the signal (docs and logs).
func (s Signal) String() string {
	return [...]string{"none", "ok", "refused", "attention"}[s]
}

// SignalOf is the signal of a validation outcome.
func SignalOf(o decide.Reason) Signal {
	switch o {
	case decide.Winner:
		return SignalOK
	case decide.Locked, decide.Forged, decide.LedgerTampered:
		return SignalAttention
	}
	return SignalRefused
}
