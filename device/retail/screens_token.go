package retail

import "time"

// The screens of a terminal that waits for the technician's card (tamper-locked, or its
// journal refused): what a scan that is no card, a wrong card, a guess pause and a
// terminal with no token configured show.

// NotACard answers a scan that is not the technician's card while the terminal is locked:
// nothing is judged, sold or paid, and the scan is no guess at the token.
func NotACard() Screen { return say("not_a_card") }

// CardRefused answers a technician's card (or token) that is not the configured one.
func CardRefused() Screen { return say("card_refused") }

// GuessPause says that after too many wrong cards none is tried for left (rounded up to
// the minute).
func GuessPause(left time.Duration) Screen { return say("guess_pause", minutes(left)) }

// UnlockOff answers a technician's card on a terminal with no token configured
// ([technician] token_sha256): nothing can unlock it (fail closed).
func UnlockOff() Screen { return say("unlock_off") }
