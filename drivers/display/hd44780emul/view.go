package hd44780emul

import "strings"

// Unnamed is how Screen shows a cell that has no one-character reading: a CGRAM glyph
// without a one-character name in Names, or a ROM code with no Unicode equivalent.
const Unnamed = '□'

// Screen returns what a person sees, one character per cell, so each line is exactly
// Cols characters wide: a custom glyph shows as the character it draws ("€", "É", from
// Names), anything without a one-character reading as Unnamed. Blank lines when the
// display is off or the handshake is not done, as Visible. Visible and Lines keep the
// names in braces ("{€}") for tests that tell a glyph from a ROM character.
func (d *Device) Screen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	on := d.litLocked()
	out := make([]string, d.rows)
	for r := range d.rows {
		var sb strings.Builder
		for c := range d.cols {
			ch := ' '
			if i := d.cell(r, c); on && i >= 0 {
				ch = d.reading(d.ddram[i])
			}
			sb.WriteRune(ch)
		}
		out[r] = sb.String()
	}
	return out
}

// Frame returns Screen inside a border: Rows+2 lines, each exactly Cols+2 characters.
func (d *Device) Frame() []string {
	screen := d.Screen()
	edge := "+" + strings.Repeat("-", d.cols) + "+"
	out := make([]string, 0, len(screen)+2)
	out = append(out, edge)
	for _, l := range screen {
		out = append(out, "|"+l+"|")
	}
	return append(out, edge)
}

// reading is the one character a person reads in a cell holding code.
func (d *Device) reading(code byte) rune {
	if code < 0x10 {
		var g [8]byte
		n := int(code & 7)
		copy(g[:], d.cgram[8*n:8*n+8])
		if name := []rune(d.Names[g]); len(name) == 1 {
			return name[0]
		}
		return Unnamed
	}
	if r := []rune(decodeROM(code)); len(r) == 1 {
		return r[0]
	}
	return Unnamed
}
