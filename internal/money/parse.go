package money

import (
	"errors"
	"fmt"
	"strings"
)

// MaxEuros is the largest amount Parse reads, in euros.
const MaxEuros = 1_000_000_000

// Errors Parse wraps, for errors.Is.
var (
	ErrSyntax = errors.New("not an amount")
	ErrDot    = errors.New("a dot is ambiguous")
	ErrRange  = errors.New("amount out of range")
)

// Grammar is the input grammar in one line, for error messages and help texts.
const Grammar = `euros with a decimal comma, e.g. "150", "150,50" or "5 000,00" (a dot is refused: write "1,50", not "1.50")`

// Parse reads an amount in euros (the grammar of the package doc) and returns cents.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimRight(strings.TrimSuffix(t, "€"), " \u00a0\u202f")
	switch {
	case t == "":
		return 0, fmt.Errorf("money: %q: empty amount: want %s: %w", s, Grammar, ErrSyntax)
	case strings.Contains(t, "."):
		return 0, fmt.Errorf(`money: %q: %w (decimal point or thousands separator): want %s`, s, ErrDot, Grammar)
	case t[0] == '-':
		return 0, fmt.Errorf("money: %q: negative amount: %w", s, ErrSyntax)
	}
	whole, frac, hasFrac := strings.Cut(t, ",")
	euros, err := parseWhole(whole)
	if err != nil {
		return 0, fmt.Errorf("money: %q: %w", s, err)
	}
	var cents int64
	if hasFrac {
		if len(frac) == 0 || len(frac) > 2 || !allDigits(frac) {
			return 0, fmt.Errorf("money: %q: want one or two digits of cents after the comma: %w", s, ErrSyntax)
		}
		for i := range 2 {
			cents *= 10
			if i < len(frac) {
				cents += int64(frac[i] - '0')
			}
		}
	}
	return euros*100 + cents, nil
}

// parseWhole reads euros: digits, in groups of three after the first when spaced.
func parseWhole(s string) (int64, error) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\u00a0", " "), "\u202f", " ")
	groups := strings.Split(s, " ")
	for i, g := range groups {
		if g == "" || !allDigits(g) || (i > 0 && len(g) != 3) || (len(groups) > 1 && len(groups[0]) > 3) {
			return 0, fmt.Errorf("want %s: %w", Grammar, ErrSyntax)
		}
	}
	digits := strings.Join(groups, "")
	if len(digits) > 10 {
		return 0, ErrRange
	}
	var n int64
	for _, c := range []byte(digits) {
		n = n*10 + int64(c-'0')
	}
	if n > MaxEuros {
		return 0, ErrRange
	}
	return n, nil
}

func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
