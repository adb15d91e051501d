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
	typist Typist
	suffix Suffix
	want   []string // "" marks a discarded line
}

var namedKeys = map[string]uint16{"ENTER": keyEnter, "TAB": keyTab, "KPENTER": keyKPEnter, "CAPSLOCK": keyCapsLock,
	"F1": 59, "ESC": 1, "KP1": 79, "SHIFT": keyLeftShift, "]": 27}

func keyCode(name string) (uint16, error) {
	if c, ok := namedKeys[name]; ok {
		return c, nil
	}
	n, err := strconv.ParseUint(name, 10, 16)
	return uint16(n), err
}

func parseScript(src string) (*keyScript, error) {
	ks := &keyScript{}
	r := &ks.typist
	sc := bufio.NewScanner(strings.NewReader(src))
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		verb, arg, _ := strings.Cut(line, " ")
		var err error
		switch verb {
		case "", "#":
		case "keymap":
			r.Keymap, err = ParseKeymap(arg)
		case "suffix":
			ks.suffix, err = ParseSuffix(arg)
		case "type":
			err = r.Type(arg)
		case "key", "ctrl":
			var code uint16
			if code, err = keyCode(arg); err == nil {
				if verb == "ctrl" {
					r.Key(code, keyLeftCtrl)
				} else {
					r.Key(code)
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
func (ks *keyScript) record(word int) []byte { return ks.typist.Record(word) }
