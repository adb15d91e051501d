package web

import (
	"strings"
	"testing"
)

// TestPageAmounts: the page writes amounts as the terminal's language does, thousands
// grouped (it wrote "123450,00 €" before), and refuses a language it does not know.
func TestPageAmounts(t *testing.T) {
	for lang, want := range map[string]string{"": "123 450,00 €", "fr": "123 450,00 €", "en": "€123,450.00"} {
		s, err := New(Options{Language: lang})
		if err != nil {
			t.Fatal(err)
		}
		tm, err := s.tmpl.New("amount").Parse(`{{euros .}}`)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := tm.Execute(&b, int64(123_450_00)); err != nil || b.String() != want {
			t.Errorf("%q: %q %v, want %q", lang, b.String(), err, want)
		}
	}
	if _, err := New(Options{Language: "de"}); err == nil {
		t.Error("an unknown language is accepted")
	}
}
