package hd44780

// Instructions (datasheet table 6): the instruction's code, and its flags.
const (
	ClearDisplay = 0x01
	ReturnHome   = 0x02 // the low bit is ignored
	EntryModeSet = 0x04
	EntryInc     = 0x02 // I/D: the address counter moves forward after a write
	EntryShift   = 0x01 // S: the display shifts with each write
	DisplayCtl   = 0x08
	DisplayOn    = 0x04 // D
	CursorOn     = 0x02 // C
	BlinkOn      = 0x01 // B
	Shift        = 0x10 // cursor or display shift
	ShiftDisplay = 0x08 // S/C: the display, not the cursor
	ShiftRight   = 0x04 // R/L
	FunctionSet  = 0x20
	EightBit     = 0x10 // DL
	TwoLines     = 0x08 // N
	Font5x10     = 0x04 // F
	SetCGRAM     = 0x40 // | the 6-bit CGRAM address
	SetDDRAM     = 0x80 // | the 7-bit DDRAM address
)

// Decoded instructions: Decode's answer.
type Op int

// The instructions, in the datasheet's order.
const (
	OpClear Op = iota + 1
	OpHome
	OpEntryMode
	OpDisplay
	OpShift
	OpFunctionSet
	OpSetCGRAM
	OpSetDDRAM
)

// Decode tells which instruction b is: the highest bit set decides (table 6).
func Decode(b byte) Op {
	switch {
	case b&0x80 != 0:
		return OpSetDDRAM
	case b&0x40 != 0:
		return OpSetCGRAM
	case b&0x20 != 0:
		return OpFunctionSet
	case b&0x10 != 0:
		return OpShift
	case b&0x08 != 0:
		return OpDisplay
	case b&0x04 != 0:
		return OpEntryMode
	case b&0x02 != 0:
		return OpHome
	case b == ClearDisplay:
		return OpClear
	}
	return 0 // 0x00: no instruction
}

// DDRAM: 80 characters, one line of 80 (0x00–0x4F) or two of 40 (0x00–0x27, 0x40–0x67).
const (
	DDRAMSize = 80
	LineSize  = 40   // a line's length in 2-line mode
	Line2     = 0x40 // the second line's first address in 2-line mode
	CGRAMSize = 64   // CGRAM: 8 custom characters of 8 rows (the emulator's character RAM)
)

// Valid reports whether a is a DDRAM address in the mode (twoLine: N = 1).
func Valid(twoLine bool, a byte) bool {
	if twoLine {
		return a <= 0x27 || (a >= 0x40 && a <= 0x67)
	}
	return a <= 0x4F
}

// Index maps a DDRAM address to a place in 80 bytes of memory: 0–39 line 1, 40–79 line
// 2 in 2-line mode, the address itself in 1-line mode.
func Index(twoLine bool, a byte) int {
	if twoLine {
		if a >= Line2 {
			return LineSize + int(a-Line2)%LineSize
		}
		return int(a) % LineSize
	}
	return int(a) % DDRAMSize
}

// Step moves the address counter one place forward (I/D = 1) or back, wrapping as the
// controller does: in 2-line mode from the end of line 1 (0x27) to the start of line 2
// (0x40) and from the end of line 2 (0x67) to 0x00; in 1-line mode from 0x4F to 0x00.
func Step(twoLine bool, a byte, forward bool) byte {
	if twoLine {
		switch {
		case forward && a == 0x27:
			return Line2
		case forward && a >= 0x67:
			return 0
		case !forward && a == 0:
			return 0x67
		case !forward && a == Line2:
			return 0x27
		}
	} else {
		switch {
		case forward && a >= 0x4F:
			return 0
		case !forward && a == 0:
			return 0x4F
		}
	}
	if forward {
		return a + 1
	}
	return a - 1
}

// Addr is the DDRAM address shown at row, col (0-based) of a panel cols wide, with the
// display shifted left by offset places (a shift right is a negative offset). In 2-line
// mode rows 0 and 1 are the controller's two lines; a 4-row panel shows rows 2 and 3 as
// the continuation of lines 1 and 2 (0x14 and 0x54 on a 20×4). In 1-line mode only row 0
// shows (ok false otherwise).
func Addr(twoLine bool, cols, row, col, offset int) (a byte, ok bool) {
	if !twoLine {
		if row > 0 {
			return 0, false
		}
		return byte(mod(col+offset, DDRAMSize)), true
	}
	base := byte(0)
	if row%2 == 1 {
		base = Line2
	}
	return base + byte(mod((row/2)*cols+col+offset, LineSize)), true
}

func mod(a, m int) int { return ((a % m) + m) % m }
