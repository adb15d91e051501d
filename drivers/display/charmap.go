package display

import (
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// romA00 maps the non-ASCII characters the HD44780U A00 ROM does have to their codes
// (datasheet table 4, "Correspondence between character codes and character patterns,
// ROM code: A00"). 0x5C is ¥ and 0x7E, 0x7F are arrows there, not '\' and '~'.
var romA00 = map[rune]byte{
	'¥': 0x5C, '→': 0x7E, '←': 0x7F,
	'·': 0xA5, '°': 0xDF,
	'α': 0xE0, 'ä': 0xE1, 'β': 0xE2, 'ε': 0xE3, 'μ': 0xE4, 'µ': 0xE4, 'σ': 0xE5, 'ρ': 0xE6,
	'√': 0xE8, '¢': 0xEC, 'ñ': 0xEE, 'ö': 0xEF,
	'θ': 0xF2, '∞': 0xF3, 'Ω': 0xF4, 'ü': 0xF5, 'Σ': 0xF6, 'π': 0xF7,
	'÷': 0xFD, '█': 0xFF,
}

// substitutes replaces typographic characters with the nearest ROM character.
var substitutes = map[rune]rune{
	'\u00A0': ' ', '\u202F': ' ', '\u2009': ' ', // no-break and thin spaces (French "20 €")
	'’': '\'', '‘': '\'', '“': '"', '”': '"', '«': '"', '»': '"',
	'–': '-', '—': '-', '…': '.', '\\': '/', '~': '-',
	'€': 'E', 'œ': 'o', 'Œ': 'O', 'æ': 'a', 'Æ': 'A', 'ß': 's',
}

// romCode returns the ROM code that shows r, if the ROM has it.
func romCode(r rune) (byte, bool) {
	if r >= 0x20 && r <= 0x7D && r != '\\' {
		return byte(r), true
	}
	c, ok := romA00[r]
	return c, ok
}

// InROM says whether the A00 ROM shows r as itself (no custom glyph, no substitute).
func InROM(r rune) bool {
	_, ok := romCode(r)
	return ok
}

// Fallback returns the ROM code used for r when no glyph is available for it: the letter
// without its accents (É → E), a typographic substitute (’ → ', € → E, no-break space →
// space), or '?' when nothing fits.
func Fallback(r rune) byte {
	if c, ok := romCode(r); ok {
		return c
	}
	if s, ok := substitutes[r]; ok {
		if c, ok := romCode(s); ok {
			return c
		}
	}
	for _, b := range norm.NFD.String(string(r)) {
		if unicode.Is(unicode.Mn, b) {
			continue
		}
		if c, ok := romCode(b); ok {
			return c
		}
		break
	}
	return '?'
}
