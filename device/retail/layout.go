package retail

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/internal/money"
)

// nbsp binds the words of one item (an amount, a date) so that Layout never splits it;
// Layout writes it as a plain space.
const nbsp = money.NBSP

// Screen is a display text: one or more forms, most detailed first. Each form is a list of
// phrases; a phrase starts a new row and wraps at spaces onto the next rows. Layout picks
// the first form that fits the panel. A screen of the terminal names its text in the
// locale (say) and gets its forms in a language with In; Text writes forms as they are.
type Screen struct {
	Forms [][]string
	key   locale.Key
	args  []any
}

// Text is a screen with one form, written as it is in every language.
func Text(phrases ...string) Screen { return Screen{Forms: [][]string{phrases}} }

// say is the screen of the locale's text k.
func say(k locale.Key, args ...any) Screen { return Screen{key: k, args: args} }

// In is s in the language of l (nil: French): its forms written out.
func (s Screen) In(l *locale.Locale) Screen {
	if s.key == "" {
		return s
	}
	return Screen{Forms: append(locale.Or(l).Forms(s.key, s.args...), s.Forms...)}
}

// Or adds a shorter form, tried when the ones before do not fit.
func (s Screen) Or(phrases ...string) Screen {
	s.Forms = append(s.Forms, phrases)
	return s
}

// ErrDoesNotFit is returned by Layout when no form of a screen fits the panel.
var ErrDoesNotFit = errors.New("retail: text does not fit the display")

// Layout lays s out on a cols×rows panel: the rows to show, at most rows of at most cols
// characters, no word or bound item cut. It fails with ErrDoesNotFit when no form fits.
// A screen not yet in a language (In) is laid out in French.
func Layout(s Screen, cols, rows int) ([]string, error) {
	s = s.In(nil)
	for _, form := range s.Forms {
		if lines, ok := layoutForm(form, cols, rows); ok {
			return lines, nil
		}
	}
	first := ""
	if len(s.Forms) > 0 {
		first = strings.Join(s.Forms[0], " / ")
	}
	return nil, fmt.Errorf("%w: %q on %dx%d", ErrDoesNotFit, strings.ReplaceAll(first, string(nbsp), " "), cols, rows)
}

// MustLayout is Layout for screens the tests have checked; a screen that does not fit shows
// as many rows as it has, each cut at the panel's width (never expected: see the tests).
func MustLayout(s Screen, cols, rows int) []string {
	s = s.In(nil)
	lines, err := Layout(s, cols, rows)
	if err == nil {
		return lines
	}
	var out []string
	for _, p := range s.Forms[len(s.Forms)-1] {
		if len(out) == rows {
			break
		}
		r := []rune(strings.ReplaceAll(p, string(nbsp), " "))
		out = append(out, string(r[:min(len(r), cols)]))
	}
	return out
}

func layoutForm(form []string, cols, rows int) ([]string, bool) {
	var out []string
	for _, p := range form {
		lines, ok := wrap(p, cols)
		if !ok {
			return nil, false
		}
		out = append(out, lines...)
		if len(out) > rows {
			return nil, false
		}
	}
	return out, true
}

// wrap splits p at spaces into lines of at most cols characters; ok is false when a word
// is longer than a line.
func wrap(p string, cols int) ([]string, bool) {
	var out []string
	line := ""
	// Split at plain spaces only: strings.Fields would split at the binding no-break spaces.
	for _, w := range strings.Split(strings.ReplaceAll(p, "\t", " "), " ") {
		if w == "" {
			continue
		}
		w = strings.ReplaceAll(w, string(nbsp), " ")
		n := utf8.RuneCountInString(w)
		if n > cols {
			return nil, false
		}
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+n <= cols:
			line += " " + w
		default:
			out = append(out, line)
			line = w
		}
	}
	if line != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out, true
}

// Bind joins the words of s with non-breaking spaces, so Layout keeps it on one row.
func Bind(s string) string { return locale.Bind(s) }

// Plain is s with the non-breaking spaces of Bind made plain again (for receipts and logs).
func Plain(s string) string { return locale.Plain(s) }
