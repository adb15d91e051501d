package retail

import (
	"time"

	"github.com/packterm/pos/device/locale"
)

// Money writes an amount in cents the way French screens and receipts write it: always two
// decimals, thousands grouped, "12,50 €", "1 000,00 €". The result is bound (Bind): a
// screen never splits it. Another language: locale.Locale.Money.
func Money(cents int64) string { return locale.French().Money(cents) }

// Date writes a moment as French screens show it: "02/12 17:32" (day/month hours:minutes).
func Date(t time.Time) string { return locale.French().Date(t) }

// FullDate writes a moment as French receipts print it: "02/12/2026 17:32:05".
func FullDate(t time.Time) string { return locale.French().FullDate(t) }
