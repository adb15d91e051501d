package money

import (
	"strconv"
	"strings"
)

// NBSP is the no-break space Format binds an amount with (a screen never splits it).
const NBSP = '\u00a0'

// Style says how Format writes an amount: the separators and where the euro sign goes.
type Style struct {
	Group   rune   // between groups of three digits (0: none)
	Decimal rune   // before the cents
	Prefix  string // before the number, e.g. "€"
	Suffix  string // after the number, e.g. "\u00a0€"
	// ShortWhole drops ",00" from a whole amount ("15 000 €"), as the game rules write prizes.
	ShortWhole bool
}

// French is the style of screens and receipts in French: "1 000,00 €" (no-break spaces).
var French = Style{Group: NBSP, Decimal: ',', Suffix: string(NBSP) + "€"}

// Format writes cents in style st. A negative amount starts with "-".
func Format(cents int64, st Style) string {
	sign, u := "", uint64(cents)
	if cents < 0 {
		sign, u = "-", -u // two's complement: right for the smallest int64 too
	}
	var b strings.Builder
	b.WriteString(sign)
	b.WriteString(st.Prefix)
	writeGrouped(&b, strconv.FormatUint(u/100, 10), st.Group)
	if r := u % 100; r != 0 || !st.ShortWhole {
		b.WriteRune(st.Decimal)
		b.WriteString(strconv.FormatUint(100+r, 10)[1:])
	}
	b.WriteString(st.Suffix)
	return b.String()
}

// Plain writes cents as Parse reads them back and files hold them: a decimal comma, no
// grouping, no sign of the euro: "5000,00", "-1,50".
func Plain(cents int64) string { return Format(cents, Style{Decimal: ','}) }

// GroupDigits writes the digits d grouped by three from the right with sep (0: none).
func GroupDigits(d string, sep rune) string {
	var b strings.Builder
	writeGrouped(&b, d, sep)
	return b.String()
}

func writeGrouped(b *strings.Builder, d string, sep rune) {
	if sep == 0 || len(d) <= 3 {
		b.WriteString(d)
		return
	}
	head := len(d) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(d[:head])
	for i := head; i < len(d); i += 3 {
		b.WriteRune(sep)
		b.WriteString(d[i : i+3])
	}
}
