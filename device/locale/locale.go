package locale

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/packterm/pos/internal/money"
)

// Key names a text.
type Key string

// Amount is an argument in euro cents, written with the locale's money style.
type Amount int64

// Date is an argument written as screens show a moment ("31/12 23:59" in French).
type Date time.Time

// List is an argument written as the texts of its keys, in order, separated by ", " (each
// text as the locale writes it: "~" binds its words).
type List []Key

// Locale is one language: its texts and its ways with money and dates.
type Locale struct {
	tag       string
	money     money.Style
	shortDate string // time layout of screens
	fullDate  string // time layout of receipts
	texts     map[Key]string
}

// Default is the language of a terminal that names none.
const Default = "fr"

// Tags lists the languages Get knows.
func Tags() []string { return []string{"en", "fr"} }

// Get returns the locale of tag ("fr", "en"; "" is Default); an unknown tag is an error.
func Get(tag string) (*Locale, error) {
	switch tag {
	case "", "fr":
		return French(), nil
	case "en":
		return English(), nil
	}
	return nil, fmt.Errorf("locale: unknown language %q: want one of %s", tag, strings.Join(Tags(), ", "))
}

// Or returns l, or French when l is nil: the zero value of a caller's option.
func Or(l *Locale) *Locale {
	if l == nil {
		return French()
	}
	return l
}

// Tag is the locale's language tag ("fr").
func (l *Locale) Tag() string { return l.tag }

// Money writes cents the locale's way, bound: "1 000,00 €" (no-break spaces) in French.
func (l *Locale) Money(cents int64) string { return money.Format(cents, l.money) }

// PlainMoney is Money with plain spaces, for receipts and logs.
func (l *Locale) PlainMoney(cents int64) string { return Plain(l.Money(cents)) }

// Date writes a moment as screens show it, bound ("02/12 17:32" in French).
func (l *Locale) Date(t time.Time) string { return Bind(t.Format(l.shortDate)) }

// FullDate writes a moment as receipts print it ("02/12/2026 17:32:05" in French).
func (l *Locale) FullDate(t time.Time) string { return t.Format(l.fullDate) }

// Text is the text of k as one line (its first form's phrases joined by spaces), its
// arguments filled in.
func (l *Locale) Text(k Key, args ...any) string {
	return strings.Join(l.Forms(k, args...)[0], " ")
}

// Forms is the text of k as a screen's forms, each a list of phrases, its arguments
// filled in. A key the locale lacks shows as itself (TestCataloguesMatch keeps it from
// happening).
func (l *Locale) Forms(k Key, args ...any) [][]string {
	t, ok := l.texts[k]
	if !ok {
		return [][]string{{string(k)}}
	}
	vals := make([]string, len(args))
	for i, a := range args {
		vals[i] = l.arg(a)
	}
	var out [][]string
	for _, form := range strings.Split(t, " || ") {
		var phrases []string
		for _, p := range strings.Split(form, " | ") {
			phrases = append(phrases, fill(p, vals))
		}
		out = append(out, phrases)
	}
	return out
}

// Keys lists the locale's keys, sorted.
func (l *Locale) Keys() []Key {
	ks := make([]Key, 0, len(l.texts))
	for k := range l.texts {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Template is the raw template of k ("" when the locale lacks it).
func (l *Locale) Template(k Key) string { return l.texts[k] }

func (l *Locale) arg(a any) string {
	switch x := a.(type) {
	case Amount:
		return l.Money(int64(x))
	case Date:
		return l.Date(time.Time(x))
	case Key:
		return l.Text(x)
	case List:
		items := make([]string, len(x))
		for i, k := range x {
			items[i] = l.Text(k)
		}
		return strings.Join(items, ", ")
	case string:
		return x
	}
	return fmt.Sprint(a)
}

// fill replaces "~" by a no-break space and "{n}" by vals[n-1].
func fill(p string, vals []string) string {
	if !strings.ContainsAny(p, "~{") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '~':
			b.WriteRune(money.NBSP)
		case c == '{':
			j := strings.IndexByte(p[i:], '}')
			n, err := strconv.Atoi(p[i+1 : i+max(j, 1)])
			if j < 0 || err != nil || n < 1 || n > len(vals) {
				b.WriteByte(c)
				continue
			}
			b.WriteString(vals[n-1])
			i += j
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Bind joins the words of s with no-break spaces, so a screen keeps it on one row.
func Bind(s string) string { return strings.ReplaceAll(s, " ", string(money.NBSP)) }

// Plain is s with its no-break spaces made plain again (for receipts and logs).
func Plain(s string) string { return strings.ReplaceAll(s, string(money.NBSP), " ") }
