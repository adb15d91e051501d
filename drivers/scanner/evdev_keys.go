package scanner

import "unicode/utf8"

// badKey stands for a key press that types no character the layout knows (function keys,
// arrows, Escape, lost events): a control byte that makes the framer discard the whole line as
// binary garbage, so a code with a character missing is never delivered.
const badKey = 0x00

// KeyDecoder turns key events into the bytes a serial scanner would have sent: UTF-8 text,
// CR for Enter (and keypad Enter), HT for Tab. It tracks Shift, Caps Lock, AltGr, Ctrl and
// AZERTY's dead keys. Autorepeat events (value 2) are dropped: the kernel makes them when a
// key stays down 250 ms, which a scanner never means (a stalled USB link does it), and
// "1" must not become "1111".
type KeyDecoder struct {
	keymap          Keymap
	shiftL, shiftR  bool
	ctrlL, ctrlR    bool
	altGr           bool
	caps            bool
	dead            rune // pending dead key, 0 if none
	repeats, events int
}

// NewKeyDecoder returns a decoder for a scanner set to keymap.
func NewKeyDecoder(keymap Keymap) *KeyDecoder { return &KeyDecoder{keymap: keymap} }

// Reset forgets the modifier state (the device was reopened: its keys are all up).
func (k *KeyDecoder) Reset() {
	*k = KeyDecoder{keymap: k.keymap, repeats: k.repeats, events: k.events}
}

// Repeats counts the autorepeat events dropped.
func (k *KeyDecoder) Repeats() int { return k.repeats }

// Feed appends to out the bytes the events type.
func (k *KeyDecoder) Feed(out []byte, evs []InputEvent) []byte {
	for _, e := range evs {
		k.events++
		switch {
		case e.Type == evSyn && e.Code == synDropped:
			// Lost events: the line is damaged, the modifier state unknown.
			k.Reset()
			out = append(out, badKey)
		case e.Type != evKey:
		case e.Value == keyRepeated:
			k.repeats++
		case e.Value == keyPressed || e.Value == keyReleased:
			out = k.key(out, e.Code, e.Value == keyPressed)
		}
	}
	return out
}

func (k *KeyDecoder) key(out []byte, code uint16, down bool) []byte {
	switch code {
	case keyLeftShift:
		k.shiftL = down
		return out
	case keyRightShift:
		k.shiftR = down
		return out
	case keyLeftCtrl:
		k.ctrlL = down
		return out
	case keyRightCtrl:
		k.ctrlR = down
		return out
	case keyRightAlt:
		k.altGr = down
		return out
	case keyLeftAlt, keyNumLock:
		return out
	case keyCapsLock:
		if down {
			k.caps = !k.caps
		}
		return out
	}
	if !down {
		return out
	}
	switch code {
	case keyEnter, keyKPEnter:
		return append(k.flushDead(out), '\r')
	case keyTab:
		return append(k.flushDead(out), '\t')
	}
	chars, ok := k.keymap.keys()[code]
	if !ok {
		return append(k.flushDead(out), badKey)
	}
	if k.ctrlL || k.ctrlR {
		// Ctrl and a key types a control character by the key's US position (Ctrl+] is GS,
		// the GS1 separator some scanners send this way).
		if c := usKeys[code][0]; c >= '[' && c <= '_' || c >= 'a' && c <= 'z' {
			return append(k.flushDead(out), byte(c)&0x1F)
		}
		return append(k.flushDead(out), badKey)
	}
	level := 0
	if k.shiftL || k.shiftR {
		level = 1
	}
	if k.caps && chars.letter() {
		level ^= 1
	}
	if k.altGr {
		level = 2
	}
	r := chars[level]
	if r == 0 {
		return append(k.flushDead(out), badKey)
	}
	if k.keymap.dead(code, level) {
		if k.dead != 0 { // a dead key twice types the accent once
			return k.flushDead(out)
		}
		k.dead = r
		return out
	}
	if k.dead != 0 {
		d := k.dead
		k.dead = 0
		if r == ' ' {
			return utf8.AppendRune(out, d)
		}
		if c, ok := deadKeys[d][r]; ok {
			return utf8.AppendRune(out, c)
		}
		out = utf8.AppendRune(out, d)
	}
	return utf8.AppendRune(out, r)
}

// flushDead types a pending dead key on its own.
func (k *KeyDecoder) flushDead(out []byte) []byte {
	if k.dead != 0 {
		out = utf8.AppendRune(out, k.dead)
		k.dead = 0
	}
	return out
}
