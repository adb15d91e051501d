package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/packterm/pos/device/board"
)

// part is one GPIO part of a board profile, by the name [board.pins] gives it.
type part struct {
	name string
	at   func(*board.PinMap) *string
}

// parts in the order of board.PinMap.
var parts = []part{
	{"lcd_rs", func(m *board.PinMap) *string { return &m.LCDRS }},
	{"lcd_e", func(m *board.PinMap) *string { return &m.LCDE }},
	{"lcd_d4", func(m *board.PinMap) *string { return &m.LCDD4 }},
	{"lcd_d5", func(m *board.PinMap) *string { return &m.LCDD5 }},
	{"lcd_d6", func(m *board.PinMap) *string { return &m.LCDD6 }},
	{"lcd_d7", func(m *board.PinMap) *string { return &m.LCDD7 }},
	{"lcd_backlight", func(m *board.PinMap) *string { return &m.LCDBacklight }},
	{"lcd_rw", func(m *board.PinMap) *string { return &m.LCDRW }},
	{"led_green", func(m *board.PinMap) *string { return &m.LEDGreen }},
	{"led_red", func(m *board.PinMap) *string { return &m.LEDRed }},
	{"buzzer", func(m *board.PinMap) *string { return &m.Buzzer }},
	{"drawer", func(m *board.PinMap) *string { return &m.Drawer }},
	{"button_ok", func(m *board.PinMap) *string { return &m.ButtonOK }},
	{"button_cancel", func(m *board.PinMap) *string { return &m.ButtonCancel }},
	{"tamper", func(m *board.PinMap) *string { return &m.Tamper }},
}

// PinNames are the part names [board.pins] accepts, in the order of board.PinMap.
func PinNames() []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.name
	}
	return out
}

func lookupPart(name string) (part, bool) {
	for _, p := range parts {
		if p.name == name {
			return p, true
		}
	}
	return part{}, false
}

// PinMap is Pins as board.Config.Pins takes it: the overrides only, by part.
func (c *Config) PinMap() board.PinMap {
	var m board.PinMap
	for name, pin := range c.Pins {
		if p, ok := lookupPart(name); ok {
			*p.at(&m) = pin
		}
	}
	return m
}

// effectivePins is the profile's map with the overrides, by part name.
func effectivePins(prof board.Profile, over map[string]string) map[string]string {
	out := map[string]string{}
	for _, p := range parts {
		if pin := *p.at(&prof.Pins); pin != "" {
			out[p.name] = pin
		}
	}
	for name, pin := range over {
		if _, ok := lookupPart(name); ok && pin != "" {
			out[name] = pin
		}
	}
	return out
}

// rpiHeader maps the GPIO pins of the Raspberry Pi's 40-pin header (periph names them
// P1_n) to their BCM numbers.
var rpiHeader = map[int]int{
	3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
	21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
	36: 16, 37: 26, 38: 20, 40: 21,
}

// pinCheckers say, per board profile, which pin names exist and which GPIO each is (so
// that two names for one pin are seen as one); a profile without one accepts any name.
var pinCheckers = map[string]func(string) (gpio string, err error){
	"rpi": rpiPin,
}

// rpiPin accepts GPIO0..GPIO27 and the header's P1_n aliases.
func rpiPin(s string) (string, error) {
	if n, ok := strings.CutPrefix(s, "GPIO"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && v <= 27 && strconv.Itoa(v) == n {
			return s, nil
		}
		return "", fmt.Errorf("pin %q: the Raspberry Pi header has GPIO0 to GPIO27", s)
	}
	if n, ok := strings.CutPrefix(s, "P1_"); ok {
		if v, err := strconv.Atoi(n); err == nil && strconv.Itoa(v) == n {
			if g, ok := rpiHeader[v]; ok {
				return "GPIO" + strconv.Itoa(g), nil
			}
		}
		return "", fmt.Errorf("pin %q is not a GPIO of the 40-pin header", s)
	}
	return "", fmt.Errorf(`pin %q: want a BCM name such as "GPIO25" or a header pin such as "P1_22"`, s)
}

// checkPins reports overrides of unknown parts, unknown pin names, and parts sharing a pin
// once the overrides are applied to the profile.
func checkPins(c *Config, add func(part, msg string)) {
	prof, err := board.Lookup(c.Board)
	if err != nil {
		return // reported on board.profile
	}
	check := pinCheckers[prof.Name]
	valid := map[string]string{} // overrides of known parts by valid pins
	for _, name := range sortedKeys(c.Pins) {
		pin := c.Pins[name]
		switch _, known := lookupPart(name); {
		case !known:
			add(name, unknownPartMsg(name))
		case pin == "":
			add(name, "empty pin name")
		case check != nil:
			if _, err := check(pin); err != nil {
				add(name, err.Error())
				continue
			}
			valid[name] = pin
		default:
			valid[name] = pin
		}
	}
	// Two parts on one pin, once the valid overrides are applied to the profile.
	eff := effectivePins(prof, valid)
	byGPIO := map[string][]string{}
	for _, p := range parts {
		pin, ok := eff[p.name]
		if !ok {
			continue
		}
		if check != nil {
			pin, _ = check(pin)
		}
		byGPIO[pin] = append(byGPIO[pin], p.name)
	}
	for _, g := range sortedKeys(byGPIO) {
		names := byGPIO[g]
		if len(names) < 2 {
			continue
		}
		for _, n := range names {
			if _, over := valid[n]; over {
				others := slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == n })
				pin := valid[n]
				if pin != g {
					pin += " (" + g + ")"
				}
				add(n, fmt.Sprintf("%s is also the pin of %s", pin, strings.Join(others, ", ")))
			}
		}
	}
}

func unknownPartMsg(name string) string {
	msg := fmt.Sprintf("unknown part %q", name)
	if s := closest(name, PinNames()); s != "" {
		return msg + fmt.Sprintf("; did you mean %q?", s)
	}
	return msg + " (parts: " + strings.Join(PinNames(), ", ") + ")"
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
