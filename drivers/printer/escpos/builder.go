package escpos

import (
	"fmt"
)

// Align values of ESC a n.
const (
	AlignLeft   = 0
	AlignCenter = 1
	AlignRight  = 2
)

// Builder accumulates ESC/POS commands. Text must already be in the selected code page.
// Methods validate their parameters; the first error sticks and is returned by Bytes.
type Builder struct {
	b   []byte
	err error
}

func (w *Builder) put(b ...byte) *Builder {
	w.b = append(w.b, b...)
	return w
}

func (w *Builder) fail(err error) *Builder {
	if w.err == nil {
		w.err = err
	}
	return w
}

// Bytes returns the stream built so far, or the first parameter error.
func (w *Builder) Bytes() ([]byte, error) { return w.b, w.err }

// Len is the number of bytes built so far.
func (w *Builder) Len() int { return len(w.b) }

// Init is ESC @: clears the print buffer and resets modes.
func (w *Builder) Init() *Builder { return w.put(ESC, '@') }

// CodePage is ESC t n.
func (w *Builder) CodePage(n byte) *Builder { return w.put(ESC, 't', n) }

// Align is ESC a n (applies at the start of a line).
func (w *Builder) Align(a byte) *Builder {
	if a > 2 {
		return w.fail(fmt.Errorf("escpos: align %d", a))
	}
	return w.put(ESC, 'a', a)
}

func bit(on bool) byte {
	if on {
		return 1
	}
	return 0
}

// Bold is ESC E n.
func (w *Builder) Bold(on bool) *Builder { return w.put(ESC, 'E', bit(on)) }

// Underline is ESC - n (0 off, 1 thin, 2 thick).
func (w *Builder) Underline(n byte) *Builder {
	if n > 2 {
		return w.fail(fmt.Errorf("escpos: underline %d", n))
	}
	return w.put(ESC, '-', n)
}

// Reverse is GS B n (white on black).
func (w *Builder) Reverse(on bool) *Builder { return w.put(GS, 'B', bit(on)) }

// Size is GS ! n with width and height multipliers 1..8.
func (w *Builder) Size(width, height int) *Builder {
	if width < 1 || width > 8 || height < 1 || height > 8 {
		return w.fail(fmt.Errorf("escpos: character size %d×%d", width, height))
	}
	return w.put(GS, '!', byte(width-1)<<4|byte(height-1))
}

// Font is ESC M n (0 font A 12×24, 1 font B 9×17).
func (w *Builder) Font(n byte) *Builder { return w.put(ESC, 'M', n) }

// LineSpacing is ESC 3 n (dots); LineSpacingDefault is ESC 2.
func (w *Builder) LineSpacing(n byte) *Builder { return w.put(ESC, '3', n) }

// LineSpacingDefault is ESC 2 (1/6 inch).
func (w *Builder) LineSpacingDefault() *Builder { return w.put(ESC, '2') }

// LeftMargin is GS L and PrintWidth GS W, in dots.
func (w *Builder) LeftMargin(dots int) *Builder {
	return w.put(GS, 'L', byte(dots), byte(dots>>8))
}

// PrintWidth is GS W nL nH (print area width in dots).
func (w *Builder) PrintWidth(dots int) *Builder {
	return w.put(GS, 'W', byte(dots), byte(dots>>8))
}

// Text appends already encoded printable bytes; control bytes are refused.
func (w *Builder) Text(b []byte) *Builder {
	for _, c := range b {
		if c < 0x20 || c == 0x7F {
			return w.fail(fmt.Errorf("escpos: control byte %#02x in text", c))
		}
	}
	return w.put(b...)
}

// LF prints the line buffer and feeds one line.
func (w *Builder) LF() *Builder { return w.put(LF) }

// FeedLines is ESC d n.
func (w *Builder) FeedLines(n byte) *Builder { return w.put(ESC, 'd', n) }

// BarcodeSetup is GS h (height dots), GS w (module width 2..6), GS H (HRI position 0 none,
// 2 below) and GS f 0 (HRI font A).
func (w *Builder) BarcodeSetup(height, module int, hri bool) *Builder {
	if height < 1 || height > 255 || module < 2 || module > 6 {
		return w.fail(fmt.Errorf("escpos: barcode height %d, module %d", height, module))
	}
	pos := byte(0)
	if hri {
		pos = 2
	}
	return w.put(GS, 'h', byte(height), GS, 'w', byte(module), GS, 'H', pos, GS, 'f', 0)
}

// Code128 is GS k 73 n with data that already starts with a code set selector ({A, {B or {C).
func (w *Builder) Code128(data []byte) *Builder {
	if len(data) < 2 || len(data) > 255 || data[0] != '{' || data[1] < 'A' || data[1] > 'C' {
		return w.fail(fmt.Errorf("escpos: Code 128 data must start with {A, {B or {C and fit 255 bytes"))
	}
	return w.put(GS, 'k', BarcodeCode128, byte(len(data))).put(data...)
}

// ITF is GS k 70 n: Interleaved 2 of 5, an even number of digits.
func (w *Builder) ITF(digits string) *Builder {
	if len(digits) < 2 || len(digits)%2 != 0 || len(digits) > 254 {
		return w.fail(fmt.Errorf("escpos: ITF needs an even number of digits, got %d", len(digits)))
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return w.fail(fmt.Errorf("escpos: ITF digit %q", r))
		}
	}
	return w.put(GS, 'k', BarcodeITF, byte(len(digits))).put([]byte(digits)...)
}

func (w *Builder) qrFn(fn byte, args ...byte) *Builder {
	n := len(args) + 2
	return w.put(GS, '(', 'k', byte(n), byte(n>>8), 49, fn).put(args...)
}

// QR stores and prints a model 2 QR code: module size 1..16 dots, ecc 'L', 'M', 'Q' or 'H'.
func (w *Builder) QR(data []byte, module int, ecc byte) *Builder {
	levels := map[byte]byte{'L': 48, 'M': 49, 'Q': 50, 'H': 51}
	lv, ok := levels[ecc]
	if !ok || module < 1 || module > 16 || len(data) == 0 || len(data) > 7089 {
		return w.fail(fmt.Errorf("escpos: QR module %d, ecc %q, %d bytes", module, ecc, len(data)))
	}
	w.qrFn(65, 50, 0)
	w.qrFn(67, byte(module))
	w.qrFn(69, lv)
	w.qrFn(80, append([]byte{48}, data...)...)
	return w.qrFn(81, 48)
}

// FeedCut is GS V 66 n: feed to the cutter plus n lines, then partial cut (TM-T88 autocutter).
func (w *Builder) FeedCut(n byte) *Builder { return w.put(GS, 'V', 66, n) }

// FeedFullCut is GS V 65 n: feed to the cutter plus n lines, then full cut.
func (w *Builder) FeedFullCut(n byte) *Builder { return w.put(GS, 'V', 65, n) }

// Raster is GS v 0 m=0: a bit image of widthBytes×8 by height dots, row-major, MSB left,
// 1 = black (TM-T88 and nearly every ESC/POS printer, including those without GS ( k).
func (w *Builder) Raster(widthBytes, height int, data []byte) *Builder {
	if widthBytes < 1 || widthBytes > 0xFFFF || height < 1 || height > 0xFFFF || len(data) != widthBytes*height {
		return w.fail(fmt.Errorf("escpos: raster %d bytes × %d rows with %d bytes", widthBytes, height, len(data)))
	}
	return w.put(GS, 'v', '0', 0, byte(widthBytes), byte(widthBytes>>8), byte(height), byte(height>>8)).put(data...)
}

// Drawer is ESC p m t1 t2: pulse on connector pin 2 (m=0) or 5 (m=1) for t1×2 ms, off t2×2 ms.
func (w *Builder) Drawer(pin5 bool, onMs, offMs int) *Builder {
	if onMs < 2 || onMs > 510 || offMs < onMs || offMs > 510 {
		return w.fail(fmt.Errorf("escpos: drawer pulse %d/%d ms", onMs, offMs))
	}
	return w.put(ESC, 'p', bit(pin5), byte(onMs/2), byte(offMs/2))
}

// StatusRequest is DLE EOT n.
func (w *Builder) StatusRequest(n byte) *Builder { return w.put(DLE, EOT, n) }

// ProcessID is GS ( H fn=48 (TM-T88V and later): the printer answers 37h 22h id NUL once all
// data before it has been printed. id is four bytes in 30h..39h.
func (w *Builder) ProcessID(id [4]byte) *Builder {
	for _, c := range id {
		if c < '0' || c > '9' {
			return w.fail(fmt.Errorf("escpos: process id byte %#02x", c))
		}
	}
	return w.put(GS, '(', 'H', 6, 0, 48, 48).put(id[:]...)
}

// Raw appends bytes as they are (for commands this Builder does not cover).
func (w *Builder) Raw(b ...byte) *Builder { return w.put(b...) }
