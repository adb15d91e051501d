package scanner

import (
	"fmt"
	"strings"
)

// Keymap is the keyboard layout a keyboard scanner is set to: it types each character as the
// key that makes it on that layout, so the same code arrives as other key codes on a QWERTY
// and an AZERTY scanner.
type Keymap int

// Keymaps.
const (
	KeymapUS Keymap = iota // US QWERTY
	KeymapFR               // French AZERTY: digits with Shift, A/Q, Z/W and M moved
)

func (k Keymap) String() string {
	if k == KeymapFR {
		return "fr"
	}
	return "us"
}

// ParseKeymap reads "us" (or "qwerty") and "fr" (or "azerty"), any case.
func ParseKeymap(s string) (Keymap, error) {
	switch strings.ToLower(s) {
	case "us", "qwerty":
		return KeymapUS, nil
	case "fr", "azerty":
		return KeymapFR, nil
	}
	return 0, fmt.Errorf("scanner: keymap %q (us or fr)", s)
}

// Linux key codes (linux/input-event-codes.h) that are not plain characters.
const (
	keyTab        = 15
	keyEnter      = 28
	keyLeftCtrl   = 29
	keyLeftShift  = 42
	keyRightShift = 54
	keyLeftAlt    = 56
	keyCapsLock   = 58
	keyNumLock    = 69
	keyKPEnter    = 96
	keyRightCtrl  = 97
	keyRightAlt   = 100 // AltGr
	keyLeftBrace  = 26  // a dead key on AZERTY
)

// keyChars is what a key types: plain, with Shift, with AltGr (0: nothing).
type keyChars [3]rune

// letter: Caps Lock inverts Shift on this key.
func (k keyChars) letter() bool {
	return k[0] != k[1] && strings.ToUpper(string(k[0])) == string(k[1])
}

// row spreads s (plain) and shifted over consecutive key codes from first.
func row(m map[uint16]keyChars, first uint16, plain, shifted string) {
	p, s := []rune(plain), []rune(shifted)
	for i := range p {
		m[first+uint16(i)] = keyChars{p[i], s[i]}
	}
}

func keypad(m map[uint16]keyChars) {
	// Keypad keys as with Num Lock on (scanners that type digits on the keypad assume it).
	for code, c := range map[uint16]rune{71: '7', 72: '8', 73: '9', 74: '-', 75: '4', 76: '5', 77: '6', 78: '+',
		79: '1', 80: '2', 81: '3', 82: '0', 83: '.', 55: '*', 98: '/'} {
		m[code] = keyChars{c, c}
	}
	m[57] = keyChars{' ', ' '}
}

// usKeys is US QWERTY (Linux "us" layout; 102nd key as backslash).
var usKeys = func() map[uint16]keyChars {
	m := map[uint16]keyChars{}
	row(m, 2, "1234567890-=", "!@#$%^&*()_+")
	row(m, 16, "qwertyuiop[]", "QWERTYUIOP{}")
	row(m, 30, "asdfghjkl;'`", "ASDFGHJKL:\"~")
	row(m, 43, `\zxcvbnm,./`, "|ZXCVBNM<>?")
	m[86] = keyChars{'\\', '|'}
	keypad(m)
	return m
}()

// frKeys is French AZERTY (Linux "fr" layout and Windows "Français"): the digit row types
// & é " ' ( - è _ ç à ) = and digits with Shift; AltGr gives ~ # { [ | ` \ ^ @ ] } and €.
var frKeys = func() map[uint16]keyChars {
	m := map[uint16]keyChars{}
	row(m, 2, "&é\"'(-è_çà)=", "1234567890°+")
	for code, alt := range map[uint16]rune{3: '~', 4: '#', 5: '{', 6: '[', 7: '|', 8: '`', 9: '\\', 10: '^', 11: '@', 12: ']', 13: '}', 18: '€'} {
		k := m[code]
		k[2] = alt
		m[code] = k
	}
	row(m, 16, "azertyuiop^$", "AZERTYUIOP¨£")
	m[18] = keyChars{'e', 'E', '€'}
	row(m, 30, "qsdfghjklmù²", "QSDFGHJKLM%²")
	row(m, 43, "*wxcvbn,;:!", "µWXCVBN?./§")
	m[86] = keyChars{'<', '>'}
	keypad(m)
	return m
}()

// deadKeys are AZERTY's dead keys (the key left of $): the accent waits for the next key.
var deadKeys = map[rune]map[rune]rune{
	'^': {'a': 'â', 'e': 'ê', 'i': 'î', 'o': 'ô', 'u': 'û', 'A': 'Â', 'E': 'Ê', 'I': 'Î', 'O': 'Ô', 'U': 'Û'},
	'¨': {'a': 'ä', 'e': 'ë', 'i': 'ï', 'o': 'ö', 'u': 'ü', 'y': 'ÿ', 'A': 'Ä', 'E': 'Ë', 'I': 'Ï', 'O': 'Ö', 'U': 'Ü'},
}

func (k Keymap) keys() map[uint16]keyChars {
	if k == KeymapFR {
		return frKeys
	}
	return usKeys
}

// dead reports whether key code on level (0 plain, 1 Shift) is a dead key of k.
func (k Keymap) dead(code uint16, level int) bool {
	return k == KeymapFR && code == keyLeftBrace && level < 2
}
