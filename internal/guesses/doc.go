// Package guesses throttles the guessing of a secret that a person types or scans (the
// technician token, on the maintenance link, the status page and the tamper lock). It
// holds the one rule: the first Free wrong guesses in a row cost nothing, then each one
// stops every guess, the right one included, for a minute, twice as long after each
// further wrong one. A right guess clears the count.
//
// A Limiter applies the rule to one source of guesses (the terminal's scanner), its pauses
// at most Longest. A Guard applies it to each source apart (a peer's network address on the
// maintenance link and on the status page), its pauses at most SourceLongest, and makes
// all sources together draw on one budget (Budget guesses, one more every Refill), of
// which the last ones are kept for the sources with the fewest wrong guesses: a stranger
// guessing from elsewhere does not keep the technician out, and the guesses checked per
// day stay bounded however many sources there are (docs/firmware.md, "Guessing the
// token").
package guesses
