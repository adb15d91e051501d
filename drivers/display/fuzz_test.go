package display_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	lcd "github.com/packterm/pos/drivers/display"
)

// readsAs reports whether a cell showing got is an acceptable rendering of rune r: r
// itself, r's glyph, or r's plain-letter fallback (compared as ROM codes, since the ROM
// has one code for µ and μ).
func readsAs(got string, r rune) bool {
	if got == string(r) || got == "{"+string(r)+"}" {
		return true
	}
	c, n := utf8.DecodeRuneInString(got)
	return n == len(got) && lcd.Fallback(c) == lcd.Fallback(r)
}

// FuzzShow: any text shown through the driver reaches the emulated panel without a
// protocol error, every cell reads as its character (ROM, glyph or plain letter), and no
// cell shows a glyph slot that holds something else.
func FuzzShow(f *testing.F) {
	for _, s := range []string{"", "SCANNEZ UN CODE", "GAGNÉ : 20 €\nDÉJÀ PAYÉ", "éèêàçùâîôûëïÉÈÊÀÇÙÂÎÔÛËÏ€",
		"\\~{}|\x00\x7f\xff", "µμ¥→←°ø中\u202f’", "ÉÈÊËÀÂÇÙÛÎÏÔ €\nça déjà payé\n€€€\nÔ"} {
		f.Add(s, s)
	}
	r := newRig(f, lcd.LCD20x4, nil)
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, text := range []string{a, b} { // two screens: glyph reuse and eviction
			lines := strings.Split(text, "\n")
			if len(lines) > 4 {
				lines = lines[:4]
			}
			if err := r.dev.Show(lines...); err != nil {
				t.Fatal(err)
			}
			cells := r.emu.Cells()
			for row := range 4 {
				want := []rune{}
				if row < len(lines) {
					want = []rune(lines[row])
				}
				for col := range 20 {
					w := ' '
					if col < len(want) {
						w = want[col]
					}
					if !readsAs(cells[row][col], w) {
						t.Fatalf("%q: row %d col %d shows %q for %q\n%s", text, row, col, cells[row][col], w, r.emu.Text())
					}
				}
			}
			for _, err := range r.emu.Errors() {
				t.Fatal(err)
			}
		}
	})
}

// FuzzWrite: any text written at the cursor, with wrapping and auto scroll, keeps the
// protocol clean and never shows a glyph slot with the wrong bitmap.
func FuzzWrite(f *testing.F) {
	for _, s := range []string{"", "abc\ndef\rg", "ÉÈÊÀÇÙÂÎÔÛËÏ€éèêàç", strings.Repeat("x€", 50)} {
		f.Add(s, false)
		f.Add(s, true)
	}
	r := newRig(f, lcd.LCD16x2, nil)
	f.Fuzz(func(t *testing.T, s string, scroll bool) {
		if err := r.dev.AutoScroll(scroll); err != nil {
			t.Fatal(err)
		}
		if n, err := r.dev.WriteString(s); err != nil || n != len(s) {
			t.Fatalf("WriteString = %d, %v", n, err)
		}
		if txt := r.emu.Text(); strings.Contains(txt, "{cg") {
			t.Fatalf("unnamed glyph on screen after %q:\n%s", s, txt)
		}
		for _, err := range r.emu.Errors() {
			t.Fatal(err)
		}
	})
}
