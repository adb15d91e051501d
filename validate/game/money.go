package game

import (
	"strconv"
	"strings"

	"github.com/packterm/pos/internal/money"
)

// Cents is an amount of money in euro cents.
type Cents int64

// Euros returns c as a number of cents from whole euros.
func Euros(e int64) Cents { return Cents(e * 100) }

// String formats c the French way, as the game rules write prizes: "15 000 €", "2,50 €".
func (c Cents) String() string { return money.Format(int64(c), rulesStyle) }

// rulesStyle drops ",00" from whole amounts and groups with plain spaces.
var rulesStyle = money.Style{Group: ' ', Decimal: ',', Suffix: " €", ShortWhole: true}

// GroupDigits writes n with its thousands separated by spaces, the French way: 12 000 000.
func GroupDigits(n int64) string {
	if n < 0 {
		return "-" + money.GroupDigits(strconv.FormatInt(-n, 10), ' ')
	}
	return money.GroupDigits(strconv.FormatInt(n, 10), ' ')
}

// InLetters gives the transcription in letters of a whole-euro amount as printed on a
// ticket (articles 4.2.3, 4.3.3, …): "QUINZE MILLE EUROS", "UN EURO". Amounts with cents
// are written "… EUROS ET … CENTIMES".
func (c Cents) InLetters() string {
	e := int64(c / 100)
	s := numberWords(e)
	switch {
	case e == 1:
		s += " EURO"
	case e > 0 && e%1_000_000 == 0: // « un million d'euros »
		s += " D'EUROS"
	default:
		s += " EUROS"
	}
	if r := int64(c % 100); r != 0 {
		s += " ET " + numberWords(r)
		if r == 1 {
			s += " CENTIME"
		} else {
			s += " CENTIMES"
		}
	}
	return s
}

var units = [...]string{"ZÉRO", "UN", "DEUX", "TROIS", "QUATRE", "CINQ", "SIX", "SEPT", "HUIT", "NEUF",
	"DIX", "ONZE", "DOUZE", "TREIZE", "QUATORZE", "QUINZE", "SEIZE", "DIX-SEPT", "DIX-HUIT", "DIX-NEUF"}
var tens = [...]string{"", "", "VINGT", "TRENTE", "QUARANTE", "CINQUANTE", "SOIXANTE", "", "QUATRE-VINGT", ""}

// numberWords writes 0 ≤ n < 10^12 in French (traditional spelling: "VINGT ET UN",
// "QUATRE-VINGTS", "DEUX CENTS", "MILLE", "DEUX MILLIONS").
func numberWords(n int64) string {
	if n < 0 {
		return "MOINS " + numberWords(-n)
	}
	if n == 0 {
		return units[0]
	}
	var parts []string
	if m := n / 1_000_000_000; m > 0 {
		parts = append(parts, below1000(m, false)+" MILLIARD"+plural(m))
		n %= 1_000_000_000
	}
	if m := n / 1_000_000; m > 0 {
		parts = append(parts, below1000(m, false)+" MILLION"+plural(m))
		n %= 1_000_000
	}
	if k := n / 1000; k > 0 {
		if k == 1 {
			parts = append(parts, "MILLE")
		} else {
			parts = append(parts, below1000(k, true)+" MILLE")
		}
		n %= 1000
	}
	if n > 0 {
		parts = append(parts, below1000(n, false))
	}
	return strings.Join(parts, " ")
}

func plural(n int64) string {
	if n > 1 {
		return "S"
	}
	return ""
}

// below1000 writes 1 ≤ n < 1000. beforeMille drops the plural s of "CENTS" and
// "QUATRE-VINGTS" before "MILLE", which is invariable.
func below1000(n int64, beforeMille bool) string {
	var parts []string
	if h := n / 100; h > 0 {
		switch {
		case h == 1:
			parts = append(parts, "CENT")
		case n%100 == 0 && !beforeMille:
			parts = append(parts, units[h]+" CENTS")
		default:
			parts = append(parts, units[h]+" CENT")
		}
		n %= 100
	}
	if n > 0 {
		parts = append(parts, below100(n, beforeMille))
	}
	return strings.Join(parts, " ")
}

func below100(n int64, beforeMille bool) string {
	if n < 20 {
		return units[n]
	}
	t, u := n/10, n%10
	switch t {
	case 7, 9: // soixante-dix…, quatre-vingt-dix…
		base := tens[t-1]
		if t == 7 && u == 1 {
			return base + " ET ONZE"
		}
		return base + "-" + units[10+u]
	case 8:
		if u == 0 {
			if beforeMille {
				return "QUATRE-VINGT"
			}
			return "QUATRE-VINGTS"
		}
		return "QUATRE-VINGT-" + units[u]
	}
	switch u {
	case 0:
		return tens[t]
	case 1:
		return tens[t] + " ET UN"
	}
	return tens[t] + "-" + units[u]
}
