package board

import (
	"fmt"
	"slices"
	"strings"

	"periph.io/x/conn/v3/gpio"
)

// PinMap names the GPIO of each part, as gpioreg.ByName knows them ("GPIO25"; a header
// alias such as "P1_22" works too on a Raspberry Pi). An empty backlight means none.
//
// LCDRW is the panel's R/W line, empty in every profile: R/W tied to ground, the panel
// never drives the GPIOs and cannot be read back. Setting it lets the display driver check
// that the panel is alive (display.Dev.Check), and is only safe when the panel's data lines
// are at the GPIOs' 3.3 V levels (a 3.3 V panel, or a level shifter: a 5 V HD44780 drives
// 5 V onto D4–D7 while R/W is high).
type PinMap struct {
	LCDRS, LCDE, LCDD4, LCDD5, LCDD6, LCDD7, LCDBacklight, LCDRW string
	LEDGreen, LEDRed, Buzzer, Drawer                             string
	ButtonOK, ButtonCancel, Tamper                               string
}

// pinEntry is one part of the map: what it is for, its pin's name, and the field of parts
// its pin goes to (an output or an input), bound by name.
type pinEntry struct {
	role, name string
	out        *gpio.PinOut
	in         *gpio.PinIn
}

// entries lists the map's parts, each bound to its field of p, in a stable order.
func (m PinMap) entries(p *parts) []pinEntry {
	return []pinEntry{
		{"LCD RS", m.LCDRS, &p.rs, nil}, {"LCD E", m.LCDE, &p.e, nil}, {"LCD D4", m.LCDD4, &p.d4, nil},
		{"LCD D5", m.LCDD5, &p.d5, nil}, {"LCD D6", m.LCDD6, &p.d6, nil}, {"LCD D7", m.LCDD7, &p.d7, nil},
		{"LCD backlight", m.LCDBacklight, &p.bl, nil}, {"LCD R/W", m.LCDRW, &p.rw, nil},
		{"green LED", m.LEDGreen, &p.green, nil}, {"red LED", m.LEDRed, &p.red, nil},
		{"buzzer", m.Buzzer, &p.buzzer, nil}, {"cash drawer", m.Drawer, &p.drawer, nil},
		{"OK button", m.ButtonOK, nil, &p.ok}, {"CANCEL button", m.ButtonCancel, nil, &p.cancel},
		{"tamper switch", m.Tamper, nil, &p.tamper},
	}
}

// merge returns m with the non-empty entries of o.
func (m PinMap) merge(o PinMap) PinMap {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&m.LCDRS, o.LCDRS)
	set(&m.LCDE, o.LCDE)
	set(&m.LCDD4, o.LCDD4)
	set(&m.LCDD5, o.LCDD5)
	set(&m.LCDD6, o.LCDD6)
	set(&m.LCDD7, o.LCDD7)
	set(&m.LCDBacklight, o.LCDBacklight)
	set(&m.LCDRW, o.LCDRW)
	set(&m.LEDGreen, o.LEDGreen)
	set(&m.LEDRed, o.LEDRed)
	set(&m.Buzzer, o.Buzzer)
	set(&m.Drawer, o.Drawer)
	set(&m.ButtonOK, o.ButtonOK)
	set(&m.ButtonCancel, o.ButtonCancel)
	set(&m.Tamper, o.Tamper)
	return m
}

// Profile is a board's wiring.
type Profile struct {
	Name        string
	Description string
	Pins        PinMap
}

// RaspberryPi is the reference wiring on the 40-pin header of a Raspberry Pi (any model
// with that header, Pi 5 included), BCM numbering; physical header pins in brackets. It
// leaves I²C (GPIO2/3), UART (GPIO14/15) and SPI0 (GPIO7–11) free.
//
//	LCD RS GPIO25 [22]  E GPIO24 [18]  D4 GPIO23 [16]  D5 GPIO22 [15]  D6 GPIO27 [13]  D7 GPIO17 [11]
//	LCD backlight GPIO4 [7] (through a transistor)
//	green LED GPIO5 [29]  red LED GPIO6 [31]  buzzer GPIO13 [33]  drawer GPIO12 [32] (driver stage)
//	OK GPIO20 [38]  CANCEL GPIO21 [40]  (to ground, internal pull-ups)
//	tamper GPIO16 [36] (closed to ground while the case is shut, internal pull-up)
//
// The panel runs at 3.3 V logic (a 5 V panel's inputs accept 3.3 V levels; R/W to ground
// so it never drives the Pi's pins). LCD R/W has no pin here: a Pi wired for reading the
// panel back sets it in the configuration ([board.pins] lcd_rw). Each call returns a
// fresh value: no caller can change the profile another sees.
func RaspberryPi() Profile {
	return Profile{
		Name:        "rpi",
		Description: "Raspberry Pi 40-pin header, BCM numbering",
		Pins: PinMap{
			LCDRS: "GPIO25", LCDE: "GPIO24", LCDD4: "GPIO23", LCDD5: "GPIO22", LCDD6: "GPIO27", LCDD7: "GPIO17",
			LCDBacklight: "GPIO4",
			LEDGreen:     "GPIO5", LEDRed: "GPIO6", Buzzer: "GPIO13", Drawer: "GPIO12",
			ButtonOK: "GPIO20", ButtonCancel: "GPIO21", Tamper: "GPIO16",
		},
	}
}

// QemuVirtName is the profile of qemu's `virt` machine (qemuvirt.go; a lab board: its
// parts are emulated, so a production build, -tags production, does not know it, unless
// built for the qemu image with -tags production,virt: the board emulator and this profile
// only, none of the lab's other emulators).
const QemuVirtName = "qemu-virt"

// profiles are the known profiles by name: the Raspberry Pi, and the lab's boards in a
// build with the emulator.
func profiles() map[string]Profile {
	m := map[string]Profile{RaspberryPi().Name: RaspberryPi()}
	for _, p := range labProfiles() {
		m[p.Name] = p
	}
	return m
}

// Profiles returns the known profile names, sorted.
func Profiles() []string {
	var out []string
	for n := range profiles() {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Lookup returns the profile called name.
func Lookup(name string) (Profile, error) {
	p, ok := profiles()[name]
	if !ok {
		return Profile{}, fmt.Errorf("board: unknown profile %q (known: %s)", name, strings.Join(Profiles(), ", "))
	}
	return p, nil
}
