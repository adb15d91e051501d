package hd44780emul_test

import (
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// FuzzPins: any sequence of pin levels and delays (each byte: pin in bits 0–2, level in
// bit 3, delay of 2^(bits 4–7) ns) is decoded without a panic, the screen keeps its
// geometry, and errors stay bounded.
func FuzzPins(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0xF1, 0x09, 0x01, 0x0A, 0xC9, 0x01, 0x02, 0x0B, 0xC9, 0x01})
	f.Add([]byte("\x01\x09\x01\x09\x01\x09\x01\x09\x00\x08\x00\x08"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		clk := gpiosim.NewClock()
		d, err := hd44780emul.New(20, 4, clk)
		if err != nil {
			t.Fatal(err)
		}
		pins := []*gpiosim.Pin{d.RS, d.E, d.D4, d.D5, d.D6, d.D7, d.BL, d.E}
		for _, op := range ops {
			clk.Sleep(time.Duration(1) << (op >> 4))
			_ = pins[op&7].Out(gpio.Level(op&8 != 0))
		}
		lines := d.Lines()
		if len(lines) != 4 {
			t.Fatalf("%d lines", len(lines))
		}
		for _, c := range d.Cells() {
			if len(c) != 20 {
				t.Fatalf("row of %d cells", len(c))
			}
		}
		if len(d.Errors()) > 101 {
			t.Fatalf("%d errors kept", len(d.Errors()))
		}
		_ = d.State()
	})
}

// FuzzPinsRW is FuzzPins with R/W wired: pin 6 is R/W, and pin 7 makes D4–D7 inputs with
// pull-ups (level low) or reads them (level high). Reads and writes mixed any way are
// decoded without a panic or a deadlock, and errors stay bounded.
func FuzzPinsRW(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x07, 0x0E, 0x09, 0x8F, 0x01, 0x09, 0x8F, 0x01, 0x06})
	f.Fuzz(func(t *testing.T, ops []byte) {
		clk := gpiosim.NewClock()
		d, err := hd44780emul.New(16, 2, clk)
		if err != nil {
			t.Fatal(err)
		}
		rw := d.WireRW()
		pins := []*gpiosim.Pin{d.RS, d.E, d.D4, d.D5, d.D6, d.D7, rw}
		data := pins[2:6]
		for _, op := range ops {
			clk.Sleep(time.Duration(1) << (op >> 4))
			high := op&8 != 0
			switch i := op & 7; {
			case i < 7:
				_ = pins[i].Out(gpio.Level(high))
			case high:
				for _, p := range data {
					_ = p.Read()
				}
			default:
				for _, p := range data {
					_ = p.In(gpio.PullUp, gpio.NoEdge)
				}
			}
		}
		if len(d.Lines()) != 2 || len(d.Errors()) > 101 {
			t.Fatalf("%d lines, %d errors", len(d.Lines()), len(d.Errors()))
		}
		_ = d.State()
	})
}
