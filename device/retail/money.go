package retail

import "github.com/packterm/pos/device/locale"

// Money writes an amount in cents the way French screens and receipts write it: always two
// decimals, thousands grouped, "12,50 €", "1 000,00 €". The result is bound (Bind): a
// screen never splits it. Another language: locale.Locale.Money; dates: locale.Locale.Date.
func Money(cents int64) string { return locale.French().Money(cents) }
