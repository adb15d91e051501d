// Package guesses throttles the guessing of a secret that a person types or scans (the
// technician token, on the maintenance link, the status page and the tamper lock): the
// first Free wrong guesses in a row cost nothing, then each one stops every guess, the right
// one included, for a minute, twice as long after each further wrong one, at most a day. A
// right guess clears the count. A short token therefore cannot be found by guessing in a
// loop, while a technician who mistypes a few times is not held up.
package guesses
