package hd44780emul

import "fmt"

// romA00 decodes the character codes of the HD44780U's A00 (Japanese standard) ROM that
// have a sensible Unicode reading; codes 0x20–0x7D are ASCII except 0x5C (¥).
var romA00 = map[byte]rune{
	0x5C: '¥', 0x7E: '→', 0x7F: '←',
	0xA5: '·', 0xDF: '°',
	0xE0: 'α', 0xE1: 'ä', 0xE2: 'β', 0xE3: 'ε', 0xE4: 'μ', 0xE5: 'σ', 0xE6: 'ρ',
	0xE8: '√', 0xEC: '¢', 0xEE: 'ñ', 0xEF: 'ö',
	0xF2: 'θ', 0xF3: '∞', 0xF4: 'Ω', 0xF5: 'ü', 0xF6: 'Σ', 0xF7: 'π',
	0xFD: '÷', 0xFF: '█',
}

// decodeROM returns how a person reads ROM character code c.
func decodeROM(c byte) string {
	if r, ok := romA00[c]; ok {
		return string(r)
	}
	if c >= 0x20 && c < 0x7E {
		return string(rune(c))
	}
	return fmt.Sprintf("{%#02x}", c)
}
