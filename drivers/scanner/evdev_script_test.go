package scanner

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// A key script describes what a keyboard scanner does, one action a line; record turns it
// into the input_event records the kernel would deliver (what an evdev read returns):
//
//	keymap us|fr       layout the scanner types with (default us)
//	suffix cr|tab      suffix the consumer expects (default cr; read by the tests)
//	type TEXT          the rest of the line, typed key by key (Shift, AltGr, dead keys as needed)
//	key NAME           press and release a key: ENTER TAB KPENTER CAPSLOCK F1 ESC KP1 or a code
//	ctrl NAME          the same with Ctrl held (ctrl ] is GS on both layouts)
//	hold NAME N        press, N autorepeat events, release
//	dropped            SYN_DROPPED: the kernel lost events
//	want "LINE"        a line the consumer must get (Go quoted); want-bad: a discarded line
//
// Events carry MSC_SCAN and SYN_REPORT as a real USB keyboard's do, 4 ms apart.
type keyScript struct {
	keymap Keymap
	suffix Suffix
	events []InputEvent
	want   []string // "" marks a discarded line
}

var namedKeys = map[string]uint16{"ENTER": keyEnter, "TAB": keyTab, "KPENTER": keyKPEnter, "CAPSLOCK": keyCapsLock,
	"F1": 59, "ESC": 1, "KP1": 79, "SHIFT": keyLeftShift, "]": 27}

const evMsc, mscScan = 0x04, 0x04

type recorder struct {
	ks   *keyScript
	t    int64 // µs
	caps bool
}

func (r *recorder) ev(typ, code uint16, value int32) {
	r.ks.events = append(r.ks.events, InputEvent{Sec: 1_700_000_000 + r.t/1e6, Usec: r.t % 1e6, Type: typ, Code: code, Value: value})
}

func (r *recorder) edge(code uint16, value int32) {
	r.ev(evMsc, mscScan, int32(0x70000+int32(code)))
	r.ev(evKey, code, value)
	r.ev(evSyn, 0, 0)
	r.t += 4000
}

func (r *recorder) tap(code uint16, mods ...uint16) {
	for _, m := range mods {
		r.edge(m, keyPressed)
	}
	r.edge(code, keyPressed)
	r.edge(code, keyReleased)
	for _, m := range mods {
		r.edge(m, keyReleased)
	}
}

// find returns the main-block key (lowest code first, no keypad) and level typing c on the
// script's keymap.
func (r *recorder) find(c rune) (code uint16, level int, ok bool) {
	for level := range 3 {
		for code := uint16(1); code < 128; code++ {
			kc, ok := r.ks.keymap.keys()[code]
			if !ok || (code >= 55 && code != 57 && code != 86) {
				continue
			}
			if kc[level] == c && !(level < 2 && r.ks.keymap.dead(code, level)) {
				return code, level, true
			}
		}
	}
	return 0, 0, false
}

func (r *recorder) typeRune(c rune) error {
	for d, comp := range deadKeys {
		for base, out := range comp {
			if out == c && r.ks.keymap == KeymapFR {
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
		return fmt.Errorf("%q not on the %v keymap", c, r.ks.keymap)
	}
	r.press(code, level, r.ks.keymap.keys()[code].letter())
	return nil
}

func (r *recorder) press(code uint16, level int, letter bool) {
	switch {
	case level == 2:
		r.tap(code, keyRightAlt)
	case (level == 1) != (r.caps && letter):
		r.tap(code, keyLeftShift)
	default:
		r.tap(code)
	}
}

func keyCode(name string) (uint16, error) {
	if c, ok := namedKeys[name]; ok {
		return c, nil
	}
	n, err := strconv.ParseUint(name, 10, 16)
	return uint16(n), err
}

func parseScript(src string) (*keyScript, error) {
	ks := &keyScript{}
	r := &recorder{ks: ks}
	sc := bufio.NewScanner(strings.NewReader(src))
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		verb, arg, _ := strings.Cut(line, " ")
		var err error
		switch verb {
		case "", "#":
		case "keymap":
			ks.keymap, err = ParseKeymap(arg)
		case "suffix":
			ks.suffix, err = ParseSuffix(arg)
		case "type":
			for _, c := range arg {
				if err = r.typeRune(c); err != nil {
					break
				}
			}
		case "key", "ctrl":
			var code uint16
			if code, err = keyCode(arg); err == nil {
				if verb == "ctrl" {
					r.tap(code, keyLeftCtrl)
				} else {
					r.tap(code)
				}
				if code == keyCapsLock {
					r.caps = !r.caps
				}
			}
		case "hold":
			name, n, _ := strings.Cut(arg, " ")
			var code uint16
			var reps int
			if c, _, ok := r.find([]rune(name)[0]); ok && len([]rune(name)) == 1 {
				code = c
			} else {
				code, err = keyCode(name)
			}
			if err == nil {
				if reps, err = strconv.Atoi(n); err == nil {
					r.edge(code, keyPressed)
					for range reps {
						r.ev(evKey, code, keyRepeated)
						r.ev(evSyn, 0, 0)
						r.t += 33000
					}
					r.edge(code, keyReleased)
				}
			}
		case "dropped":
			r.ev(evSyn, synDropped, 0)
		case "want":
			var s string
			if s, err = strconv.Unquote(arg); err == nil {
				ks.want = append(ks.want, s)
			}
		case "want-bad":
			ks.want = append(ks.want, "")
		default:
			err = fmt.Errorf("unknown verb %q", verb)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d %q: %w", ln, line, err)
		}
	}
	return ks, sc.Err()
}

// record encodes the script's events for a word size.
func (ks *keyScript) record(word int) []byte {
	var b []byte
	for _, e := range ks.events {
		b = AppendEvent(b, word, e)
	}
	return b
}
