package hd44780_test

import (
	"fmt"
	"testing"

	"github.com/packterm/pos/drivers/display/hd44780"
)

// The datasheet's tables, written out as the datasheet prints them (Hitachi HD44780U,
// ADE-207-272(Z) '99.9 Rev. 0.0): nothing here is computed by the model under test.

// Table 6: each instruction's bit pattern.
func TestInstructionCodes(t *testing.T) {
	for _, c := range []struct {
		name string
		got  byte
		want byte
	}{
		{"clear display", hd44780.ClearDisplay, 0b0000_0001},
		{"return home", hd44780.ReturnHome, 0b0000_0010},
		{"entry mode set, increment", hd44780.EntryModeSet | hd44780.EntryInc, 0b0000_0110},
		{"entry mode set, shift", hd44780.EntryModeSet | hd44780.EntryShift, 0b0000_0101},
		{"display on, cursor, blink", hd44780.DisplayCtl | hd44780.DisplayOn | hd44780.CursorOn | hd44780.BlinkOn, 0b0000_1111},
		{"display shift right", hd44780.Shift | hd44780.ShiftDisplay | hd44780.ShiftRight, 0b0001_1100},
		{"cursor shift left", hd44780.Shift, 0b0001_0000},
		{"function set 8-bit", hd44780.FunctionSet | hd44780.EightBit, 0b0011_0000},
		{"function set 4-bit, 2 lines, 5×8", hd44780.FunctionSet | hd44780.TwoLines, 0b0010_1000},
		{"function set 5×10", hd44780.FunctionSet | hd44780.Font5x10, 0b0010_0100},
		{"set CGRAM address 0x08", hd44780.SetCGRAM | 0x08, 0b0100_1000},
		{"set DDRAM address 0x40", hd44780.SetDDRAM | 0x40, 0b1100_0000},
	} {
		if c.got != c.want {
			t.Errorf("%s = %#08b, datasheet %#08b", c.name, c.got, c.want)
		}
	}
	for b, want := range map[byte]hd44780.Op{
		0x01: hd44780.OpClear, 0x02: hd44780.OpHome, 0x03: hd44780.OpHome, 0x06: hd44780.OpEntryMode,
		0x07: hd44780.OpEntryMode, 0x0C: hd44780.OpDisplay, 0x18: hd44780.OpShift, 0x1F: hd44780.OpShift,
		0x28: hd44780.OpFunctionSet, 0x3F: hd44780.OpFunctionSet, 0x40: hd44780.OpSetCGRAM, 0x7F: hd44780.OpSetCGRAM,
		0x80: hd44780.OpSetDDRAM, 0xE7: hd44780.OpSetDDRAM, 0x00: 0,
	} {
		if got := hd44780.Decode(b); got != want {
			t.Errorf("Decode(%#02x) = %v, want %v", b, got, want)
		}
	}
}

// rows is what a panel shows, as DDRAM addresses.
func rows(twoLine bool, cols, nrows, offset int) string {
	s := ""
	for r := range nrows {
		for c := range cols {
			a, ok := hd44780.Addr(twoLine, cols, r, c, offset)
			if !ok {
				s += " --"
				continue
			}
			s += fmt.Sprintf(" %02X", a)
		}
		s += " |"
	}
	return s
}

// Figures 10 to 12 and the 20×4 panels' map (rows 3 and 4 continue lines 1 and 2).
func TestDDRAMAddressMaps(t *testing.T) {
	for _, c := range []struct {
		name                string
		twoLine             bool
		cols, nrows, offset int
		want                string
	}{
		{"8×1, figure 10", false, 8, 1, 0, " 00 01 02 03 04 05 06 07 |"},
		{"8×1 shifted left", false, 8, 1, 1, " 01 02 03 04 05 06 07 08 |"},
		{"8×1 shifted right", false, 8, 1, -1, " 4F 00 01 02 03 04 05 06 |"},
		{"16×2, figure 12", true, 16, 2, 0,
			" 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F | 40 41 42 43 44 45 46 47 48 49 4A 4B 4C 4D 4E 4F |"},
		{"16×2 shifted left", true, 16, 2, 1,
			" 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 | 41 42 43 44 45 46 47 48 49 4A 4B 4C 4D 4E 4F 50 |"},
		{"16×2 shifted right", true, 16, 2, -1,
			" 27 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E | 67 40 41 42 43 44 45 46 47 48 49 4A 4B 4C 4D 4E |"},
		{"20×4", true, 20, 4, 0,
			" 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 |" +
				" 40 41 42 43 44 45 46 47 48 49 4A 4B 4C 4D 4E 4F 50 51 52 53 |" +
				" 14 15 16 17 18 19 1A 1B 1C 1D 1E 1F 20 21 22 23 24 25 26 27 |" +
				" 54 55 56 57 58 59 5A 5B 5C 5D 5E 5F 60 61 62 63 64 65 66 67 |"},
		{"1-line mode shows one row", false, 8, 2, 0, " 00 01 02 03 04 05 06 07 | -- -- -- -- -- -- -- -- |"},
	} {
		if got := rows(c.twoLine, c.cols, c.nrows, c.offset); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// The address counter's wrap-around and the valid addresses (table 4, "DDRAM").
func TestAddressCounter(t *testing.T) {
	for _, c := range []struct {
		twoLine, forward bool
		from, to         byte
	}{
		{true, true, 0x00, 0x01}, {true, true, 0x27, 0x40}, {true, true, 0x67, 0x00},
		{true, false, 0x00, 0x67}, {true, false, 0x40, 0x27}, {true, false, 0x41, 0x40},
		{false, true, 0x4E, 0x4F}, {false, true, 0x4F, 0x00}, {false, false, 0x00, 0x4F},
	} {
		if got := hd44780.Step(c.twoLine, c.from, c.forward); got != c.to {
			t.Errorf("Step(2-line %v, %#02x, forward %v) = %#02x, want %#02x", c.twoLine, c.from, c.forward, got, c.to)
		}
	}
	valid := map[bool][]byte{true: {0x00, 0x27, 0x40, 0x67}, false: {0x00, 0x27, 0x28, 0x4F}}
	invalid := map[bool][]byte{true: {0x28, 0x3F, 0x68, 0x7F}, false: {0x50, 0x7F}}
	for two, as := range valid {
		for _, a := range as {
			if !hd44780.Valid(two, a) {
				t.Errorf("%#02x refused (2-line %v)", a, two)
			}
		}
	}
	for two, as := range invalid {
		for _, a := range as {
			if hd44780.Valid(two, a) {
				t.Errorf("%#02x taken (2-line %v)", a, two)
			}
		}
	}
	for a, want := range map[byte]int{0x00: 0, 0x27: 39, 0x40: 40, 0x67: 79} {
		if got := hd44780.Index(true, a); got != want {
			t.Errorf("Index(2-line, %#02x) = %d, want %d", a, got, want)
		}
	}
	if got := hd44780.Index(false, 0x4F); got != 79 {
		t.Errorf("Index(1-line, 0x4F) = %d", got)
	}
}

// Every byte decodes to the instruction whose code is its highest bit set (table 6: the
// instruction's code is a 1 followed, to its right, by its parameters), 0x00 to none.
func TestDecodeEveryByte(t *testing.T) {
	codes := []struct {
		bit byte
		op  hd44780.Op
	}{
		{0x80, hd44780.OpSetDDRAM}, {0x40, hd44780.OpSetCGRAM}, {0x20, hd44780.OpFunctionSet}, {0x10, hd44780.OpShift},
		{0x08, hd44780.OpDisplay}, {0x04, hd44780.OpEntryMode}, {0x02, hd44780.OpHome}, {0x01, hd44780.OpClear},
	}
	for b := range 256 {
		var want hd44780.Op
		for _, c := range codes {
			if byte(b)&c.bit != 0 {
				want = c.op
				break
			}
		}
		if got := hd44780.Decode(byte(b)); got != want {
			t.Errorf("Decode(%#02x) = %v, want %v", b, got, want)
		}
	}
}
