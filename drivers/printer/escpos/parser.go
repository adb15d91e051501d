package escpos

import (
	"errors"
)

// MaxData bounds an image or data block the parser buffers (a 576×4096-dot raster is 288 KiB).
const MaxData = 1 << 20

var errShort = errors.New("short")

// Parser turns a byte stream into Commands, across arbitrary chunk boundaries.
type Parser struct {
	buf []byte
}

// Feed parses b after what was left over and returns every complete command.
func (p *Parser) Feed(b []byte) []Command {
	p.buf = append(p.buf, b...)
	cmds, n := Parse(p.buf)
	p.buf = append(p.buf[:0], p.buf[n:]...)
	return cmds
}

// Flush reports the bytes of an incomplete command at end of stream as OpUnknown.
func (p *Parser) Flush() []Command {
	if len(p.buf) == 0 {
		return nil
	}
	c := Command{Op: OpUnknown, Raw: append([]byte(nil), p.buf...), Reason: "truncated at end of stream"}
	p.buf = p.buf[:0]
	return []Command{c}
}

// Parse parses as many complete commands from b as it can and returns how many bytes they used;
// the rest is an incomplete command (or nothing).
func Parse(b []byte) ([]Command, int) {
	var cmds []Command
	i := 0
	for i < len(b) {
		c, n, err := parseOne(b[i:])
		if err != nil {
			break
		}
		c.Raw = append([]byte(nil), b[i:i+n]...)
		cmds = append(cmds, c)
		i += n
	}
	return cmds, i
}

func isText(c byte) bool { return c >= 0x20 && c != 0x7F || c >= 0x80 }

func unknown(n int, reason string) (Command, int, error) {
	return Command{Op: OpUnknown, Reason: reason}, n, nil
}

// need returns errShort unless b has at least n bytes.
func need(b []byte, n int) error {
	if len(b) < n {
		return errShort
	}
	return nil
}

func parseOne(b []byte) (Command, int, error) {
	c := b[0]
	switch {
	case isText(c) && c != 0x7F:
		n := 1
		for n < len(b) && isText(b[n]) && b[n] != 0x7F {
			n++
		}
		return Command{Op: OpText, Data: append([]byte(nil), b[:n]...)}, n, nil
	case c == LF:
		return Command{Op: OpLF}, 1, nil
	case c == CR:
		return Command{Op: OpCR}, 1, nil
	case c == HT:
		return Command{Op: OpHT}, 1, nil
	case c == FF:
		return Command{Op: OpFF}, 1, nil
	case c == CAN:
		return Command{Op: OpCAN}, 1, nil
	case c == ESC:
		return parseESC(b)
	case c == GS:
		return parseGS(b)
	case c == DLE:
		return parseDLE(b)
	case c == FS:
		return parseFS(b)
	case c == 0x00:
		// NUL padding between commands is common in captured streams; still report it.
		return unknown(1, "stray NUL")
	}
	return unknown(1, "unknown control byte")
}

// escFixed gives the total length of fixed-size ESC commands and their Op.
var escFixed = map[byte]struct {
	n  int
	op Op
}{
	'@': {2, OpInit}, '!': {3, OpPrintMode}, '-': {3, OpUnderline}, '2': {2, OpLineSpacingDefault},
	'3': {3, OpLineSpacing}, 'a': {3, OpAlign}, 'E': {3, OpBold}, 'G': {3, OpDoubleStrike},
	'M': {3, OpFont}, 'R': {3, OpCharset}, 't': {3, OpCodePage}, 'd': {3, OpFeedLines},
	'J': {3, OpFeedDots}, 'e': {3, OpReverseFeed}, 'p': {5, OpDrawer}, '{': {3, OpUpsideDown},
	'V': {3, OpRotate}, ' ': {3, OpCharSpacing}, '$': {4, OpPosition}, '\\': {4, OpPosition},
	'i': {2, OpCut}, 'm': {2, OpCut}, 'L': {2, OpPageMode}, 'S': {2, OpPageMode},
	'T': {3, OpPageMode}, 'W': {10, OpPageMode}, 'U': {3, OpSetting}, '=': {3, OpSetting},
	'r': {3, OpSetting}, '%': {3, OpSetting}, '?': {3, OpSetting}, 'B': {4, OpBeep},
	'c': {4, OpPanelButtons}, 'A': {3, OpLineSpacing60}, '+': {3, OpLineSpacing360},
}

func parseESC(b []byte) (Command, int, error) {
	if err := need(b, 2); err != nil {
		return Command{}, 0, err
	}
	switch b[1] {
	case '*': // ESC * m nL nH d1…dk
		if err := need(b, 5); err != nil {
			return Command{}, 0, err
		}
		m, cols := b[2], int(b[3])+int(b[4])<<8
		var per int
		switch m {
		case 0, 1:
			per = 1
		case 32, 33:
			per = 3
		default:
			return unknown(3, "ESC * with bad mode")
		}
		k := cols * per
		if err := need(b, 5+k); err != nil {
			return Command{}, 0, err
		}
		return Command{Op: OpBitImage, Args: []byte{m}, Width: cols, Height: per * 8,
			Data: append([]byte(nil), b[5:5+k]...)}, 5 + k, nil
	case 'D': // tab positions, NUL-terminated, at most 32
		for i := 2; i < len(b) && i < 35; i++ {
			if b[i] == 0 {
				return Command{Op: OpSetting, Args: append([]byte(nil), b[2:i]...)}, i + 1, nil
			}
		}
		if len(b) < 35 {
			return Command{}, 0, errShort
		}
		return unknown(2, "ESC D without terminator")
	case '(': // ESC ( A pL pH … (beep) and friends
		if err := need(b, 5); err != nil {
			return Command{}, 0, err
		}
		n := 5 + int(b[3]) + int(b[4])<<8
		if err := need(b, n); err != nil {
			return Command{}, 0, err
		}
		if b[2] == 'A' {
			return Command{Op: OpBeep, Args: append([]byte(nil), b[5:n]...)}, n, nil
		}
		return Command{Op: OpFunction, Arg: int(b[2])}, n, nil
	case '&': // user-defined characters: ESC & y c1 c2 [x d1…d(y×x)]…
		if err := need(b, 5); err != nil {
			return Command{}, 0, err
		}
		y, c1, c2 := int(b[2]), int(b[3]), int(b[4])
		if y < 1 || y > 3 || c1 > c2 {
			return unknown(2, "ESC & with bad parameters")
		}
		i := 5
		for range c2 - c1 + 1 {
			if err := need(b, i+1); err != nil {
				return Command{}, 0, err
			}
			i += 1 + y*int(b[i])
		}
		if err := need(b, i); err != nil {
			return Command{}, 0, err
		}
		return Command{Op: OpSetting}, i, nil
	}
	f, ok := escFixed[b[1]]
	if !ok {
		return unknown(2, "unknown ESC command")
	}
	if err := need(b, f.n); err != nil {
		return Command{}, 0, err
	}
	c := Command{Op: f.op, Args: append([]byte(nil), b[2:f.n]...)}
	if f.n > 2 {
		c.Arg = int(b[2])
	}
	if b[1] == 'i' {
		c.Arg = 0 // full cut (obsolete)
	} else if b[1] == 'm' {
		c.Arg = 1 // partial cut (obsolete)
	}
	return c, f.n, nil
}

var gsFixed = map[byte]struct {
	n  int
	op Op
}{
	'!': {3, OpSize}, 'B': {3, OpReverse}, 'H': {3, OpHRIPosition}, 'f': {3, OpHRIFont},
	'h': {3, OpBarcodeHeight}, 'w': {3, OpBarcodeWidth}, 'L': {4, OpLeftMargin},
	'W': {4, OpPrintWidth}, 'a': {3, OpASB}, 'r': {3, OpTransmitStatus}, 'I': {3, OpPrinterID},
	'b': {3, OpSetting}, 'P': {4, OpSetting}, '$': {4, OpPosition}, '\\': {4, OpPosition},
	'/': {3, OpSetting}, 'T': {3, OpSetting}, 'E': {3, OpSetting}, 'J': {3, OpSetting},
	'|': {3, OpSetting}, // print density (python-escpos set(density=…))
}

func parseGS(b []byte) (Command, int, error) {
	if err := need(b, 2); err != nil {
		return Command{}, 0, err
	}
	switch b[1] {
	case 'V':
		if err := need(b, 3); err != nil {
			return Command{}, 0, err
		}
		switch m := b[2]; m {
		case 0, 1, 48, 49:
			return Command{Op: OpCut, Arg: int(m) & 1}, 3, nil
		case 65, 66, 97, 98, 103, 104:
			if err := need(b, 4); err != nil {
				return Command{}, 0, err
			}
			partial := 0
			if m == 66 || m == 98 || m == 104 {
				partial = 1
			}
			return Command{Op: OpCut, Arg: partial, Args: []byte{b[3]}}, 4, nil
		}
		return unknown(3, "GS V with bad mode")
	case 'k':
		return parseBarcode(b)
	case 'v':
		if err := need(b, 8); err != nil {
			return Command{}, 0, err
		}
		if b[2] != '0' {
			return unknown(3, "GS v other than raster bit image")
		}
		m := b[3]
		if m > 3 && (m < 48 || m > 51) {
			return unknown(4, "GS v 0 with bad mode")
		}
		xb, y := int(b[4])+int(b[5])<<8, int(b[6])+int(b[7])<<8
		k := xb * y
		if k > MaxData {
			return unknown(8, "GS v 0 raster larger than the parser accepts")
		}
		if err := need(b, 8+k); err != nil {
			return Command{}, 0, err
		}
		return Command{Op: OpRaster, Arg: int(m & 3), Width: xb * 8, Height: y,
			Data: append([]byte(nil), b[8:8+k]...)}, 8 + k, nil
	case '(':
		if err := need(b, 5); err != nil {
			return Command{}, 0, err
		}
		n := 5 + int(b[3]) + int(b[4])<<8
		if err := need(b, n); err != nil {
			return Command{}, 0, err
		}
		body := b[5:n]
		switch b[2] {
		case 'k':
			if len(body) < 2 {
				return unknown(n, "GS ( k too short")
			}
			c := Command{Op: OpQR, Arg: int(body[1]), Args: append([]byte(nil), body[:min(len(body), 3)]...)}
			if body[0] != 49 {
				c.Op, c.Reason = OpUnknown, "GS ( k symbol other than QR"
				return c, n, nil
			}
			if body[1] == 80 && len(body) >= 3 {
				c.Data = append([]byte(nil), body[3:]...)
			}
			return c, n, nil
		case 'L':
			return graphics(body, n)
		case 'H':
			if len(body) == 6 && body[0] == 48 && body[1] == 48 {
				return Command{Op: OpProcessID, Data: append([]byte(nil), body[2:]...)}, n, nil
			}
			return unknown(n, "GS ( H other than a process ID request")
		}
		return Command{Op: OpFunction, Arg: int(b[2])}, n, nil
	case '8':
		if err := need(b, 7); err != nil {
			return Command{}, 0, err
		}
		if b[2] != 'L' {
			return unknown(3, "GS 8 other than L")
		}
		l := int(b[3]) | int(b[4])<<8 | int(b[5])<<16 | int(b[6])<<24
		if l < 0 || l > MaxData {
			return unknown(7, "GS 8 L larger than the parser accepts")
		}
		if err := need(b, 7+l); err != nil {
			return Command{}, 0, err
		}
		return graphics(b[7:7+l], 7+l)
	}
	f, ok := gsFixed[b[1]]
	if !ok {
		return unknown(2, "unknown GS command")
	}
	if err := need(b, f.n); err != nil {
		return Command{}, 0, err
	}
	return Command{Op: f.op, Arg: int(b[2]), Args: append([]byte(nil), b[2:f.n]...)}, f.n, nil
}

// graphics decodes GS ( L bodies: fn 112 stores a raster (a bx by c xL xH yL yH d…), fn 50
// prints it; others are accepted as OpGraphics with their parameters.
func graphics(body []byte, n int) (Command, int, error) {
	if len(body) < 2 || body[0] != 48 {
		return unknown(n, "GS ( L with bad m")
	}
	c := Command{Op: OpGraphics, Arg: int(body[1]), Args: append([]byte(nil), body[2:min(len(body), 10)]...)}
	if body[1] == 112 {
		if len(body) < 10 {
			return unknown(n, "GS ( L store too short")
		}
		w, h := int(body[6])|int(body[7])<<8, int(body[8])|int(body[9])<<8
		if len(body)-10 < (w+7)/8*h {
			return unknown(n, "GS ( L store data shorter than its size")
		}
		c.Width, c.Height = w, h
		c.Data = append([]byte(nil), body[10:10+(w+7)/8*h]...)
	}
	return c, n, nil
}

func parseBarcode(b []byte) (Command, int, error) {
	if err := need(b, 3); err != nil {
		return Command{}, 0, err
	}
	m := b[2]
	switch {
	case m <= 6: // function A: NUL-terminated, renumbered to function B's 65+m
		for i := 3; i < len(b) && i < 3+256; i++ {
			if b[i] == 0 {
				return Command{Op: OpBarcode, Arg: int(m) + 65, Data: append([]byte(nil), b[3:i]...)}, i + 1, nil
			}
		}
		if len(b) < 3+256 {
			return Command{}, 0, errShort
		}
		return unknown(3, "GS k function A without terminator")
	case m >= 65 && m <= 79:
		if err := need(b, 4); err != nil {
			return Command{}, 0, err
		}
		n := 4 + int(b[3])
		if err := need(b, n); err != nil {
			return Command{}, 0, err
		}
		return Command{Op: OpBarcode, Arg: int(m), Data: append([]byte(nil), b[4:n]...)}, n, nil
	}
	return unknown(3, "GS k with bad barcode system")
}

func parseDLE(b []byte) (Command, int, error) {
	if err := need(b, 2); err != nil {
		return Command{}, 0, err
	}
	switch b[1] {
	case EOT, ENQ:
		if err := need(b, 3); err != nil {
			return Command{}, 0, err
		}
		op := OpStatusRequest
		if b[1] == ENQ {
			op = OpRecover
		}
		return Command{Op: op, Arg: int(b[2])}, 3, nil
	case DC4:
		if err := need(b, 3); err != nil {
			return Command{}, 0, err
		}
		switch b[2] {
		case 1: // DLE DC4 1 m t: real-time drawer pulse
			if err := need(b, 5); err != nil {
				return Command{}, 0, err
			}
			return Command{Op: OpDrawer, Arg: int(b[3]), Args: []byte{b[3], b[4]}}, 5, nil
		case 2: // power off: DLE DC4 2 1 8
			if err := need(b, 5); err != nil {
				return Command{}, 0, err
			}
			return Command{Op: OpRealTime, Arg: 2}, 5, nil
		case 7: // buzzer: DLE DC4 7 m
			if err := need(b, 4); err != nil {
				return Command{}, 0, err
			}
			return Command{Op: OpRealTime, Arg: 7}, 4, nil
		case 8:
			if err := need(b, len(ClearBuffers)); err != nil {
				return Command{}, 0, err
			}
			if string(b[:len(ClearBuffers)]) == ClearBuffers {
				return Command{Op: OpClearBuffers}, len(ClearBuffers), nil
			}
			return unknown(3, "DLE DC4 8 with a bad key")
		}
		return unknown(3, "unknown DLE DC4 function")
	}
	return unknown(1, "DLE not followed by EOT, ENQ or DC4")
}

func parseFS(b []byte) (Command, int, error) {
	if err := need(b, 2); err != nil {
		return Command{}, 0, err
	}
	switch b[1] {
	case '&', '.':
		return Command{Op: OpKanji}, 2, nil
	case 'C', '!', '-', 'S', 'W':
		if err := need(b, 3); err != nil {
			return Command{}, 0, err
		}
		if b[1] == 'S' {
			if err := need(b, 4); err != nil {
				return Command{}, 0, err
			}
			return Command{Op: OpKanji}, 4, nil
		}
		return Command{Op: OpKanji, Arg: int(b[2])}, 3, nil
	case 'p':
		if err := need(b, 4); err != nil {
			return Command{}, 0, err
		}
		return Command{Op: OpNVImage, Arg: int(b[2]), Args: []byte{b[3]}}, 4, nil
	}
	return unknown(2, "unknown FS command")
}
