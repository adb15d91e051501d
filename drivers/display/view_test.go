package display_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/packterm/pos/drivers/display/hd44780emul"
)

// The emulated panel's framed view keeps its geometry whatever the text: € and accented
// capitals (custom glyphs) take one cell each, like any ROM character.
func TestFrameKeepsGeometry(t *testing.T) {
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			r := newRig(t, geo, nil)
			lines := []string{"PAYÉ 20 €", "DÉJÀ PAYÉ : 12,50 €"}
			for len(lines) < geo.Rows {
				lines = append(lines, "ÉÈÊÀÇÙÂ€ÉÈÊÀÇÙÂ€ÉÈÊÀ")
			}
			for i := range lines {
				if utf8.RuneCountInString(lines[i]) > geo.Cols {
					lines[i] = string([]rune(lines[i])[:geo.Cols])
				}
			}
			if err := r.dev.Show(lines...); err != nil {
				t.Fatal(err)
			}
			r.clean(t)
			frame := r.emu.Frame()
			if len(frame) != geo.Rows+2 {
				t.Fatalf("frame has %d lines, want %d:\n%s", len(frame), geo.Rows+2, strings.Join(frame, "\n"))
			}
			for i, l := range frame {
				if n := utf8.RuneCountInString(l); n != geo.Cols+2 {
					t.Errorf("frame line %d %q is %d characters wide, want %d", i, l, n, geo.Cols+2)
				}
			}
			if got, want := frame[1], "|"+pad(lines[0], geo.Cols)+"|"; got != want {
				t.Errorf("first row %q, want %q", got, want)
			}
			// The glyphs the driver loaded read as their characters; the braced names stay
			// in Visible for tests that tell a glyph from a ROM character.
			if !strings.Contains(frame[1], "PAYÉ 20 €") || !strings.Contains(r.emu.Visible()[0], "PAY{É} 20 {€}") {
				t.Errorf("frame %q, visible %q", frame[1], r.emu.Visible()[0])
			}
		})
	}
}

func TestScreenOfUnnamedGlyphAndDarkPanel(t *testing.T) {
	r := newRig(t, geometries[0], nil)
	r.emu.Names = nil // a panel whose glyphs nobody named
	if err := r.dev.Show("€"); err != nil {
		t.Fatal(err)
	}
	if got := r.emu.Screen()[0]; got != string(hd44780emul.Unnamed)+strings.Repeat(" ", 15) {
		t.Errorf("unnamed glyph: %q", got)
	}
	if err := r.dev.Display(false); err != nil {
		t.Fatal(err)
	}
	for _, l := range r.emu.Screen() {
		if l != strings.Repeat(" ", 16) {
			t.Errorf("display off shows %q", l)
		}
	}
}

func pad(s string, n int) string { return s + strings.Repeat(" ", n-utf8.RuneCountInString(s)) }
