//go:build !production || virt

package board

import (
	"fmt"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// Emulator holds the emulated parts of an emulated board.
type Emulator struct {
	LCD                        *hd44780emul.Device
	Green, Red, Buzzer, Drawer *gpiosim.Pin // recording their history
	OK, Cancel, Tamper         *gpiosim.Input
	Clock                      clockwork.Clock
}

// openEmulated wires the real drivers to the pin-level LCD emulator, recording output pins
// and fake contacts (buttons released, case closed). The emulated panel has its R/W line
// wired whatever the profile says, so that the display's Check can be exercised
// (Board.Display.CanCheck is true); the pins written are the same until Check is called.
func openEmulated(prof Profile, geo display.Geometry, cfg Config) (*Board, error) {
	clk := cfg.Clock
	lcd, err := hd44780emul.New(geo.Cols, geo.Rows, cfg.DisplayClock)
	if err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	names := map[[8]byte]string{}
	for r, g := range display.DefaultFont() {
		names[g] = string(r)
	}
	lcd.Names = names
	rec := func(name string, num int) *gpiosim.Pin {
		p := gpiosim.NewPin(name, num, clk)
		p.Record = true
		return p
	}
	em := &Emulator{
		LCD:    lcd,
		Green:  rec(prof.Pins.LEDGreen, 5),
		Red:    rec(prof.Pins.LEDRed, 6),
		Buzzer: rec(prof.Pins.Buzzer, 13),
		Drawer: rec(prof.Pins.Drawer, 12),
		OK:     gpiosim.NewInput(prof.Pins.ButtonOK, 20, false, clk),
		Cancel: gpiosim.NewInput(prof.Pins.ButtonCancel, 21, false, clk),
		Tamper: gpiosim.NewInput(prof.Pins.Tamper, 16, true, clk),
		Clock:  clk,
	}
	lcd.BL.Record = true
	b, err := build(prof, geo, cfg, parts{
		rs: lcd.RS, e: lcd.E, d4: lcd.D4, d5: lcd.D5, d6: lcd.D6, d7: lcd.D7, bl: lcd.BL, rw: lcd.WireRW(),
		green: em.Green, red: em.Red, buzzer: em.Buzzer, drawer: em.Drawer,
		ok: em.OK, cancel: em.Cancel, tamper: em.Tamper,
	})
	if err != nil {
		return nil, err
	}
	b.Profile.Name += " (emulated)"
	b.Emulator = em
	return b, nil
}

// Contact is one of the emulated board's inputs.
type Contact int

// The emulated contacts.
const (
	ContactOK Contact = iota + 1
	ContactCancel
	ContactTamper // active: the case is open
)

// Input is the fake pin of contact c.
func (e *Emulator) Input(c Contact) *gpiosim.Input {
	switch c {
	case ContactOK:
		return e.OK
	case ContactCancel:
		return e.Cancel
	case ContactTamper:
		return e.Tamper
	}
	return nil
}

// Set makes contact c active (pressed, case open) or not.
func (e *Emulator) Set(c Contact, active bool) {
	if in := e.Input(c); in != nil {
		in.Set(active)
	}
}
