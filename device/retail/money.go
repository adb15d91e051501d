package retail

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Money writes an amount in cents the way screens and receipts write it: always two
// decimals, thousands grouped, "12,50 €", "1 000,00 €". The result is bound (Bind): a
// screen never splits it.
func Money(cents int64) string {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	e := strconv.FormatInt(cents/100, 10)
	var b strings.Builder
	head := len(e) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(e[:head])
	for i := head; i < len(e); i += 3 {
		b.WriteRune(nbsp)
		b.WriteString(e[i : i+3])
	}
	s := fmt.Sprintf("%s,%02d%c€", b.String(), cents%100, nbsp)
	if neg {
		s = "-" + s
	}
	return s
}

// Date writes a moment as screens show it: "02/12 17:32" (day/month hours:minutes).
func Date(t time.Time) string { return Bind(t.Format("02/01 15:04")) }

// FullDate writes a moment as receipts print it: "02/12/2026 17:32:05".
func FullDate(t time.Time) string { return t.Format("02/01/2006 15:04:05") }
