package display_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"periph.io/x/conn/v3/display"

	lcd "github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// streamHash runs a fixed session (init, French screens with glyphs, text written at the
// cursor, cursor and shift commands, backlight) on a panel of geometry geo and returns a
// SHA-256 of what RS, E, D4–D7 and the backlight saw: each pin's write count and its level
// changes with their times from power-on. wire, when not nil, may wire more of emu (R/W).
func streamHash(t *testing.T, geo lcd.Geometry, wire func(emu *hd44780emul.Device, p *lcd.Pins)) string {
	t.Helper()
	clk := gpiosim.NewClock()
	emu, err := hd44780emul.New(geo.Cols, geo.Rows, clk)
	if err != nil {
		t.Fatal(err)
	}
	bus := []*gpiosim.Pin{emu.RS, emu.E, emu.D4, emu.D5, emu.D6, emu.D7, emu.BL}
	for _, p := range bus {
		p.Record = true
	}
	start := clk.Now()
	pins := lcd.Pins{RS: emu.RS, E: emu.E, D4: emu.D4, D5: emu.D5, D6: emu.D6, D7: emu.D7, Backlight: emu.BL}
	if wire != nil {
		wire(emu, &pins)
	}
	d, err := lcd.New(pins, lcd.Opts{Geometry: geo, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	steps := []error{
		d.SetBacklight(true),
		d.Show([]string{"PAYÉ : 1 250,00 €", "ÇA N’EST PAS GAGNÉ", "DÉJÀ PAYÉ LE 01/12", "À 14:32 ÉTÉ"}[:geo.Rows]...),
		d.Show("PAYÉ : 1 250,00 €", "Œuvre à côté ; où ?"),
		d.MoveTo(1, 3),
		d.Cursor(display.CursorUnderline, display.CursorBlink),
		d.Move(display.Forward),
		d.Clear(),
		d.AutoScroll(true),
		d.Home(),
		d.AutoScroll(false),
		d.Display(false),
		d.Display(true),
		d.Show("GAGNÉ : 20,00 €"),
	}
	_, err = d.WriteString("été\nhiver…\rÊtre")
	steps = append(steps, err)
	for i, err := range steps {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	for _, err := range emu.Errors() {
		t.Error(err)
	}
	h := sha256.New()
	for _, p := range bus {
		fmt.Fprintf(h, "%s %d:", p.Name(), p.Writes())
		for _, c := range p.History() {
			fmt.Fprintf(h, " %d/%v", c.At.Sub(start).Nanoseconds(), c.Level)
		}
		fmt.Fprintln(h)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestByteStreamWithoutRW checks that the pins see, to the nanosecond, what the
// write-only driver sent before R/W could be wired (the hashes were recorded from it):
// with R/W not wired, and with R/W wired as long as Check is not called (the driver
// only sets R/W low once).
func TestByteStreamWithoutRW(t *testing.T) {
	golden := map[string]string{
		"16x2": "87c977c7b5f80922c1bccc866bea2b7f04a1879e6bbfe306bca0601d6b921b24",
		"20x4": "652e488e6f85a068a51085cf650695ea730fdaf7446c28b17347f357a75ba617",
	}
	wireRW := func(emu *hd44780emul.Device, p *lcd.Pins) { p.RW = emu.WireRW() }
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			if got := streamHash(t, geo, nil); got != golden[name(geo)] {
				t.Errorf("R/W not wired: stream %s, want %s", got, golden[name(geo)])
			}
			if got := streamHash(t, geo, wireRW); got != golden[name(geo)] {
				t.Errorf("R/W wired, no check: stream %s, want %s", got, golden[name(geo)])
			}
		})
	}
}
