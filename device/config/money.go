package config

import (
	"errors"
	"fmt"
	"strings"
)

// maxEuros bounds what a money key can hold before Validate's range check, so that cents
// never overflow.
const maxEuros = 1_000_000_000

// MaxLimit is the largest payment limit Validate accepts (1 000 000,00 €), to catch a
// slipped finger rather than a policy.
const MaxLimit = 1_000_000_00

// ParseEuros reads an amount in euros written the French way and returns cents: digits,
// optionally grouped by thousands with spaces ("5 000"), optionally a decimal comma and
// one or two digits of cents ("150,5", "150,50"), optionally followed by "€". A dot is
// refused: "1.500" is one euro fifty in English and fifteen hundred euros in French.
func ParseEuros(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSpace(strings.TrimSuffix(t, "€"))
	switch {
	case t == "":
		return 0, fmt.Errorf("%q: empty amount", s)
	case strings.Contains(t, "."):
		return 0, fmt.Errorf(`%q: a dot is ambiguous (decimal point or thousands separator); write cents after a comma, e.g. "150,50"`, s)
	case t[0] == '-':
		return 0, fmt.Errorf("%q: negative amount", s)
	}
	whole, frac, hasFrac := strings.Cut(t, ",")
	euros, err := parseWhole(whole)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	var cents int64
	if hasFrac {
		if len(frac) == 0 || len(frac) > 2 || !allDigits(frac) {
			return 0, fmt.Errorf("%q: want one or two digits of cents after the comma", s)
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
	s = strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s)
	groups := strings.Split(s, " ")
	for i, g := range groups {
		if !allDigits(g) || g == "" || (i > 0 && len(g) != 3) || (len(groups) > 1 && len(groups[0]) > 3) {
			return 0, errors.New(`not an amount in euros: want digits, e.g. "5000" or "5 000,00"`)
		}
	}
	digits := strings.Join(groups, "")
	if len(digits) > 10 {
		return 0, errors.New("amount out of range")
	}
	var n int64
	for _, c := range []byte(digits) {
		n = n*10 + int64(c-'0')
	}
	if n > maxEuros {
		return 0, errors.New("amount out of range")
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

// FormatEuros writes cents as ParseEuros reads them, without grouping: "5000,00".
func FormatEuros(cents int64) string {
	sign, u := "", uint64(cents)
	if cents < 0 {
		sign, u = "-", -u // two's complement: right for the smallest int64 too
	}
	return fmt.Sprintf("%s%d,%02d", sign, u/100, u%100)
}
