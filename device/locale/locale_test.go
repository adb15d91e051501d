package locale

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/internal/money"
)

var placeholder = regexp.MustCompile(`\{[0-9]+\}`)

// TestCataloguesMatch: every language has the same keys, each with the same placeholders,
// the same number of phrases per form on one-line texts, and no empty phrase.
func TestCataloguesMatch(t *testing.T) {
	fr := French()
	for _, tag := range Tags() {
		l, err := Get(tag)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(l.Keys(), fr.Keys()) {
			for _, k := range fr.Keys() {
				if l.Template(k) == "" {
					t.Errorf("%s lacks %q", tag, k)
				}
			}
			for _, k := range l.Keys() {
				if fr.Template(k) == "" {
					t.Errorf("%s has %q, French does not", tag, k)
				}
			}
		}
		for _, k := range l.Keys() {
			got, want := placeholders(l.Template(k)), placeholders(fr.Template(k))
			if !slices.Equal(got, want) {
				t.Errorf("%s %q: placeholders %v, French has %v", tag, k, got, want)
			}
			for _, form := range l.Forms(k) {
				for _, p := range form {
					if strings.TrimSpace(p) == "" && !strings.HasPrefix(string(k), "testpage.") {
						t.Errorf("%s %q: empty phrase", tag, k)
					}
				}
			}
		}
	}
}

func placeholders(s string) []string {
	ps := placeholder.FindAllString(s, -1)
	slices.Sort(ps)
	return slices.Compact(ps)
}

func TestGet(t *testing.T) {
	for _, tag := range []string{"", "fr", "en"} {
		if _, err := Get(tag); err != nil {
			t.Errorf("Get(%q): %v", tag, err)
		}
	}
	if _, err := Get("de"); err == nil || !strings.Contains(err.Error(), "en, fr") {
		t.Errorf("Get(de): %v", err)
	}
	if Or(nil).Tag() != "fr" {
		t.Error("the default is not French")
	}
}

func TestForms(t *testing.T) {
	l := &Locale{tag: "xx", money: money.Style{Decimal: ','}, texts: map[Key]string{"a": "X {1} | Y~{2} {3} || {9} {x} {", "b": "ONE"}, shortDate: "02/01", fullDate: "2006"}
	got := l.Forms("a", Amount(1_00), "two", Key("b"))
	want := [][]string{{"X 1,00", "Y\u00a0two ONE"}, {"{9} {x} {"}}
	if len(got) != 2 || !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) {
		t.Errorf("Forms = %q, want %q", got, want)
	}
	if got := l.Forms("a", List{"b", "b"}, List{}, List{"b"}); got[0][1] != "Y\u00a0 ONE" || got[0][0] != "X ONE, ONE" {
		t.Errorf("lists: %q", got)
	}
	if got := l.Text("missing"); got != "missing" {
		t.Errorf("a missing key shows %q", got)
	}
	at := time.Date(2026, 12, 2, 17, 32, 5, 0, time.UTC)
	if got := French().Text("already_sold", Date(at)); got != "PAQUET DÉJÀ VENDU LE 02/12\u00a017:32 VENTE REFUSÉE" {
		t.Errorf("French date %q", got)
	}
	if got := English().FullDate(at); got != "2026-12-02 17:32:05" {
		t.Errorf("English full date %q", got)
	}
	if got := English().PlainMoney(-1_234_567_89); got != "-€1,234,567.89" {
		t.Errorf("English money %q", got)
	}
}
