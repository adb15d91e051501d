// Package techcard is the shape of the technician's unlock card (posctl keys card): the
// text its QR code holds, and how a scanned text is recognised as one. A tamper-locked or
// journal-refused terminal tries only card-shaped scans as the technician's token; any
// other scan (a pack, a ticket, a validation code, a stray label) is no guess at the token
// and is not counted against it.
package techcard

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Prefix starts every card's text: "POSTECH1:" then the token. It is none of the
// terminal's codes (those are digits and capitals without ':') and says the card's
// version.
const Prefix = "POSTECH1:"

// MaxToken bounds a token on a card (a scanner line holds 512 bytes with its prefixes).
const MaxToken = 256

// ErrToken is the error of a token no card can carry.
var ErrToken = errors.New("techcard: token cannot go on a card")

// Encode is the text of the card for token. A token a scanner cannot send back as typed
// (empty, over MaxToken bytes, invalid UTF-8, control characters or leading or trailing
// spaces) is refused.
func Encode(token []byte) (string, error) {
	if err := check(string(token)); err != nil {
		return "", err
	}
	return Prefix + string(token), nil
}

// Decode reports whether text was read from a card and returns its token. A text without
// the prefix is no card (ok false), whatever follows; a card-shaped text with a token no
// card carries is no card either.
func Decode(text string) (token string, ok bool) {
	token, ok = strings.CutPrefix(text, Prefix)
	if !ok || check(token) != nil {
		return "", false
	}
	return token, true
}

func check(token string) error {
	switch {
	case token == "":
		return fmt.Errorf("%w: empty", ErrToken)
	case len(token) > MaxToken:
		return fmt.Errorf("%w: %d bytes, at most %d", ErrToken, len(token), MaxToken)
	case !utf8.ValidString(token):
		return fmt.Errorf("%w: not UTF-8 text", ErrToken)
	case strings.IndexFunc(token, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0:
		return fmt.Errorf("%w: it holds control characters a scanner does not send", ErrToken)
	case strings.TrimSpace(token) != token:
		return fmt.Errorf("%w: leading or trailing spaces", ErrToken)
	}
	return nil
}
