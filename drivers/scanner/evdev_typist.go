package scanner

import "fmt"

// Typist is the other end of KeyDecoder: it turns text into the input_event records a
// keyboard-wedge scanner set to Keymap sends for it, as an evdev read returns them. Each
// key edge is a USB keyboard's MSC_SCAN, EV_KEY and SYN_REPORT, 4 ms after the previous
// one; Shift, AltGr and the dead keys are pressed as the layout needs (AZERTY digits
// with Shift). Tests and emulators record event streams with it.
type Typist struct {
	Keymap Keymap
	Events []InputEvent
	t      int64 // µs since the first event
	caps   bool  // Caps Lock on
}

const evMsc, mscScan = 0x04, 0x04

// Type types text key by key; it fails on a character the keymap cannot type.
func (r *Typist) Type(text string) error {
	for _, c := range text {
		if err := r.typeRune(c); err != nil {
			return err
		}
	}
	return nil
}

// Key presses and releases the key of a Linux key code (KEY_ENTER is 28, KEY_TAB 15),
// with the modifier keys mods held around it.
func (r *Typist) Key(code uint16, mods ...uint16) {
	r.tap(code, mods...)
	if code == keyCapsLock {
		r.caps = !r.caps
	}
}

// Record encodes the events for a word size (the size of a long: 4 or 8).
func (r *Typist) Record(word int) []byte {
	var b []byte
	for _, e := range r.Events {
		b = AppendEvent(b, word, e)
	}
	return b
}

func (r *Typist) ev(typ, code uint16, value int32) {
	r.Events = append(r.Events, InputEvent{Sec: 1_700_000_000 + r.t/1e6, Usec: r.t % 1e6, Type: typ, Code: code, Value: value})
}

func (r *Typist) edge(code uint16, value int32) {
	r.ev(evMsc, mscScan, int32(0x70000+int32(code)))
	r.ev(evKey, code, value)
	r.ev(evSyn, 0, 0)
	r.t += 4000
}

func (r *Typist) tap(code uint16, mods ...uint16) {
	for _, m := range mods {
		r.edge(m, keyPressed)
	}
	r.edge(code, keyPressed)
	r.edge(code, keyReleased)
	for _, m := range mods {
		r.edge(m, keyReleased)
	}
}

// find returns the main-block key (lowest code first, no keypad) and level typing c on
// the keymap.
func (r *Typist) find(c rune) (code uint16, level int, ok bool) {
	for level := range 3 {
		for code := uint16(1); code < 128; code++ {
			kc, ok := r.Keymap.keys()[code]
			if !ok || (code >= 55 && code != 57 && code != 86) {
				continue
			}
			if kc[level] == c && !(level < 2 && r.Keymap.dead(code, level)) {
				return code, level, true
			}
		}
	}
	return 0, 0, false
}

func (r *Typist) typeRune(c rune) error {
	for d, comp := range deadKeys {
		for base, out := range comp {
			if out == c && r.Keymap == KeymapFR {
				level := 0
				if d == '¨' {
					level = 1
				}
				r.press(keyLeftBrace, level, false)
				return r.typeRune(base)
			}
		}
	}
	code, level, ok := r.find(c)
	if !ok {
		return fmt.Errorf("scanner: %q not on the %v keymap", c, r.Keymap)
	}
	r.press(code, level, r.Keymap.keys()[code].letter())
	return nil
}

func (r *Typist) press(code uint16, level int, letter bool) {
	switch {
	case level == 2:
		r.tap(code, keyRightAlt)
	case (level == 1) != (r.caps && letter):
		r.tap(code, keyLeftShift)
	default:
		r.tap(code)
	}
}
