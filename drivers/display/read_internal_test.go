package display

import (
	"testing"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// TestReadNibbles checks the 4-bit read path on the emulated panel: every character code
// written to DDRAM reads back whole (high nibble first, D4 the low bit of each nibble),
// "Read busy flag & address" gives the address counter, the data lines are read with
// pull-ups and are outputs again, R/W low, after each read, and the emulator sees no
// protocol error.
func TestReadNibbles(t *testing.T) {
	clk := gpiosim.NewClock()
	emu, err := hd44780emul.New(16, 2, clk)
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Pins{RS: emu.RS, E: emu.E, D4: emu.D4, D5: emu.D5, D6: emu.D6, D7: emu.D7, RW: emu.WireRW()},
		Opts{Geometry: LCD16x2, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	afterRead := func(what string) {
		t.Helper()
		for _, p := range []*gpiosim.Pin{emu.D4, emu.D5, emu.D6, emu.D7} {
			if p.IsInput() || p.Pull() != gpio.PullUp {
				t.Fatalf("%s: %s input %v, pull %v", what, p.Name(), p.IsInput(), p.Pull())
			}
		}
		if emu.RW.Read() != gpio.Low {
			t.Fatalf("%s: R/W left high", what)
		}
	}
	for c := range 256 {
		b := byte(c)
		if err := d.command(cmdSetDDRAM | 0x05); err != nil {
			t.Fatal(err)
		}
		if err := d.send(gpio.High, b); err != nil {
			t.Fatal(err)
		}
		if err := d.command(cmdSetDDRAM | 0x05); err != nil {
			t.Fatal(err)
		}
		got, err := d.read(gpio.High)
		if err != nil || got != b {
			t.Fatalf("code %#02x reads %#02x, %v", b, got, err)
		}
		afterRead("data read")
		clk.Sleep(d.t.Exec)
	}
	if err := d.command(cmdSetDDRAM | 0x4A); err != nil {
		t.Fatal(err)
	}
	if s, err := d.read(gpio.Low); err != nil || s != 0x4A {
		t.Errorf("status %#02x, want address 0x4a without busy flag: %v", s, err)
	}
	afterRead("status read")
	for _, err := range emu.Errors() {
		t.Error(err)
	}
}
