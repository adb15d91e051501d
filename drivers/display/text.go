package display

import (
	"fmt"
	"unicode/utf8"

	"periph.io/x/conn/v3/display"
	"periph.io/x/conn/v3/gpio"
)

// Show implements Screen: it replaces the whole screen, sending only the cells that
// change. Glyphs are planned for the screen as a whole (see planGlyphs).
func (d *Dev) Show(lines ...string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(lines) > d.geo.Rows {
		return fmt.Errorf("display: show: %d lines for a %d-row panel", len(lines), d.geo.Rows)
	}
	want := make([][]rune, d.geo.Rows)
	counts := map[rune]int{}
	for r := range want {
		row := make([]rune, 0, d.geo.Cols)
		if r < len(lines) {
			for _, c := range lines[r] {
				if len(row) == d.geo.Cols {
					break
				}
				row = append(row, c)
			}
		}
		for len(row) < d.geo.Cols {
			row = append(row, ' ')
		}
		for _, c := range row {
			if _, rom := romCode(c); !rom {
				if _, ok := d.font[c]; ok {
					counts[c]++
				}
			}
		}
		want[r] = row
	}
	if d.autoS {
		if err := d.command(cmdEntryMode | 0x02); err != nil {
			return fmt.Errorf("display: show: %w", err)
		}
		d.autoS = false
	}
	var visible [80]bool
	for r := range d.geo.Rows {
		for c := range d.geo.Cols {
			visible[d.index(d.addr(r, c))] = true
		}
	}
	assign, err := d.planGlyphs(counts, func(i int) bool { return visible[i] })
	if err != nil {
		return fmt.Errorf("display: show: %w", err)
	}
	for r, row := range want {
		for c, ch := range row {
			code, rom := romCode(ch)
			if !rom {
				if s, ok := assign[ch]; ok {
					code = byte(s)
				} else {
					code = Fallback(ch)
				}
			}
			a := d.addr(r, c)
			if d.mem[d.index(a)] == code {
				continue
			}
			if err := d.setAddr(a); err != nil {
				return fmt.Errorf("display: show: %w", err)
			}
			if err := d.data(code); err != nil {
				return fmt.Errorf("display: show: %w", err)
			}
		}
	}
	return nil
}

// Write implements display.TextDisplay: p is UTF-8 text written at the cursor. Without
// auto scroll, the text wraps from the end of a row to the start of the next one (and
// from the last row to the first), '\n' starts the next row and '\r' the current one.
// With auto scroll the controller shifts the display on each character instead.
func (d *Dev) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if err := d.writeRune(r); err != nil {
			return i, fmt.Errorf("display: write: %w", err)
		}
		i += n
	}
	return len(p), nil
}

// WriteString implements display.TextDisplay.
func (d *Dev) WriteString(s string) (int, error) { return d.Write([]byte(s)) }

func (d *Dev) writeRune(r rune) error {
	row, col, on := d.position(d.ac)
	switch r {
	case '\n':
		return d.setAddr(d.addr((row+1)%d.geo.Rows, 0))
	case '\r':
		return d.setAddr(d.addr(row, 0))
	}
	code, err := d.glyphFor(r, d.index(d.ac))
	if err != nil {
		return err
	}
	if err := d.data(code); err != nil {
		return err
	}
	if !d.autoS && on && col == d.geo.Cols-1 {
		return d.setAddr(d.addr((row+1)%d.geo.Rows, 0))
	}
	return nil
}

// MoveTo implements display.TextDisplay: row and col are 0-based.
func (d *Dev) MoveTo(row, col int) error {
	if row < 0 || row >= d.geo.Rows || col < 0 || col >= d.geo.Cols {
		return fmt.Errorf("display: move to (%d,%d): outside %dx%d: %w", row, col, d.geo.Cols, d.geo.Rows, display.ErrInvalidCommand)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.setAddr(d.addr(row, col)); err != nil {
		return fmt.Errorf("display: move to: %w", err)
	}
	return nil
}

// Move implements display.TextDisplay: Forward and Backward use the cursor shift
// instruction, Up and Down move to the same column of the neighbouring row.
func (d *Dev) Move(dir display.CursorDirection) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var err error
	switch dir {
	case display.Forward, display.Backward:
		fwd := dir == display.Forward
		c := byte(cmdShift)
		if fwd {
			c |= 0x04
		}
		if err = d.command(c); err == nil {
			d.ac = d.step(d.ac, fwd)
		}
	case display.Up, display.Down:
		row, col, ok := d.position(d.ac)
		if !ok {
			return fmt.Errorf("display: move: cursor is off screen: %w", display.ErrInvalidCommand)
		}
		if dir == display.Up {
			row--
		} else {
			row++
		}
		if row < 0 || row >= d.geo.Rows {
			return fmt.Errorf("display: move: no row %d: %w", row, display.ErrInvalidCommand)
		}
		err = d.setAddr(d.addr(row, col))
	default:
		return fmt.Errorf("display: move %d: %w", dir, display.ErrInvalidCommand)
	}
	if err != nil {
		return fmt.Errorf("display: move: %w", err)
	}
	return nil
}

// Cursor implements display.TextDisplay. The HD44780 has an underline cursor and a
// blinking block: CursorBlock and CursorBlink both select the blinking block; several
// modes combine; CursorOff (or no mode) hides both.
func (d *Dev) Cursor(modes ...display.CursorMode) error {
	bits := byte(0)
	for _, m := range modes {
		switch m {
		case display.CursorOff:
		case display.CursorUnderline:
			bits |= 0x02
		case display.CursorBlock, display.CursorBlink:
			bits |= 0x01
		default:
			return fmt.Errorf("display: cursor mode %d: %w", m, display.ErrInvalidCommand)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.control(d.ctl&0x04 | bits)
}

// Display implements display.TextDisplay: it switches the picture (not the backlight).
func (d *Dev) Display(on bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.ctl &^ 0x04
	if on {
		c |= 0x04
	}
	return d.control(c)
}

func (d *Dev) control(c byte) error {
	if err := d.command(cmdDisplay | c); err != nil {
		return fmt.Errorf("display: display control: %w", err)
	}
	d.ctl = c
	return nil
}

// AutoScroll implements display.TextDisplay: with it, the display shifts left on each
// character written (entry mode S=1) so the cursor stays put on screen.
func (d *Dev) AutoScroll(enabled bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := byte(cmdEntryMode | 0x02)
	if enabled {
		c |= 0x01
	}
	if err := d.command(c); err != nil {
		return fmt.Errorf("display: entry mode: %w", err)
	}
	d.autoS = enabled
	return nil
}

// Clear implements display.TextDisplay: blank screen, no shift, cursor home. Loaded
// glyphs stay in CGRAM for reuse.
func (d *Dev) Clear() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdClear); err != nil {
		return fmt.Errorf("display: clear: %w", err)
	}
	for i := range d.mem {
		d.mem[i] = ' '
	}
	d.ac, d.offset, d.inCGRAM = 0, 0, false
	return nil
}

// Home implements display.TextDisplay: cursor to (0,0) and display shift undone.
func (d *Dev) Home() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdHome); err != nil {
		return fmt.Errorf("display: home: %w", err)
	}
	d.ac, d.offset, d.inCGRAM = 0, 0, false
	return nil
}

// SetBacklight implements Screen.
func (d *Dev) SetBacklight(on bool) error {
	if d.bl == nil {
		return ErrNoBacklight
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.bl.Out(gpio.Level(on)); err != nil {
		return fmt.Errorf("display: backlight: %w", err)
	}
	return nil
}

// Backlight implements display.DisplayBacklight: any intensity above 0 is on (the pin
// switches a transistor; there is no dimming).
func (d *Dev) Backlight(intensity display.Intensity) error {
	if d.bl == nil {
		return fmt.Errorf("%w: %w", ErrNoBacklight, display.ErrNotImplemented)
	}
	return d.SetBacklight(intensity > 0)
}

// Halt implements conn.Resource: picture and backlight off.
func (d *Dev) Halt() error {
	if err := d.Display(false); err != nil {
		return err
	}
	if d.bl != nil {
		return d.SetBacklight(false)
	}
	return nil
}

// String implements display.TextDisplay.
func (d *Dev) String() string { return fmt.Sprintf("HD44780 %dx%d", d.geo.Cols, d.geo.Rows) }

// Cols implements display.TextDisplay.
func (d *Dev) Cols() int { return d.geo.Cols }

// Rows implements display.TextDisplay.
func (d *Dev) Rows() int { return d.geo.Rows }

// MinCol implements display.TextDisplay: columns count from 0.
func (d *Dev) MinCol() int { return 0 }

// MinRow implements display.TextDisplay: rows count from 0.
func (d *Dev) MinRow() int { return 0 }
