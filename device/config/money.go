package config

import (
	amount "github.com/packterm/pos/internal/money"
)

// maxEuros bounds what a money key can hold before Validate's range check, so that cents
// never overflow.
const maxEuros = amount.MaxEuros

// MaxLimit is the largest payment limit Validate accepts (1 000 000,00 €), to catch a
// slipped finger rather than a policy.
const MaxLimit = 1_000_000_00

// ParseEuros reads an amount in euros and returns cents: amount.Parse, the one grammar of
// every amount (digits, optionally grouped by thousands with spaces, optionally a decimal
// comma and one or two digits of cents, optionally "€"; a dot is refused: "1.500" is one
// euro fifty in English and fifteen hundred euros in French).
func ParseEuros(s string) (int64, error) { return amount.Parse(s) }

// FormatEuros writes cents as ParseEuros reads them, without grouping: "5000,00".
func FormatEuros(cents int64) string { return amount.Plain(cents) }

func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
