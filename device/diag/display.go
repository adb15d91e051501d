package diag

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"periph.io/x/conn/v3/display"

	"github.com/packterm/pos/device/retail"
	lcd "github.com/packterm/pos/drivers/display"
)

// Step is one thing shown or done, for the technician to check.
type Step struct {
	Name  string
	Check string // what a person should see or hear
}

// Pattern is a full screen of the display test.
type Pattern struct {
	Step
	Lines []string
}

// DisplayPatterns returns the test screens for a cols×rows panel.
func DisplayPatterns(cols, rows int) []Pattern {
	fill := func(f func(r int) string) []string {
		out := make([]string, rows)
		for r := range out {
			out[r] = f(r)
		}
		return out
	}
	var ps []Pattern
	ps = append(ps, Pattern{Step{"all dots", "every cell a full block: no dead dots, even contrast"},
		fill(func(int) string { return strings.Repeat("█", cols) })})
	ps = append(ps, Pattern{Step{"line addressing", "row N starts with N> and ends with <N, letters in order"},
		fill(func(r int) string {
			mid := make([]byte, cols-4)
			for i := range mid {
				mid[i] = byte('a' + (r*(cols-4)+i)%26)
			}
			return fmt.Sprintf("%d>%s<%d", r+1, mid, r+1)
		})})
	ascii := make([]rune, 0, 94)
	for c := rune(0x21); c <= 0x7D; c++ {
		if c != '\\' {
			ascii = append(ascii, c)
		}
	}
	ps = append(ps, Pattern{Step{"ROM characters", "ASCII from ! onwards, in order"},
		fill(func(r int) string {
			start := (r * cols) % len(ascii)
			var sb strings.Builder
			for i := range cols {
				sb.WriteRune(ascii[(start+i)%len(ascii)])
			}
			return sb.String()
		})})
	glyphs := retail.Text("€ É È Ê À Ç Ù Â", "DÉJÀ PAYÉ "+retail.Money(12_50), "ÇA A ÉTÉ PAYÉ", "GAGNÉ "+retail.Money(1000_00)).
		Or("€ É È Ê À Ç Ù Â", "PAYÉ "+retail.Money(12_50))
	ps = append(ps, Pattern{Step{"custom glyphs", "€ and accents drawn correctly (8 custom glyphs at most)"}, layout(glyphs, cols, rows)})
	ps = append(ps, Pattern{Step{"glyph shortage", "€ and the first capitals accented, the rest plain letters"},
		layout(retail.Text("ÉÈÊËÀÂÇÙÛÎÏÔ €", "ça déjà payé"), cols, rows)})
	for _, s := range []struct {
		name   string
		screen retail.Screen
	}{
		{"idle", retail.Idle()}, {"ticket code", retail.TicketHint()}, {"winner", retail.WinnerScreen(12_50)},
		{"already paid", retail.AlreadyPaidScreen(time.Date(2026, 12, 24, 18, 30, 0, 0, time.UTC), "EMU-0001")},
	} {
		ps = append(ps, Pattern{Step{"retail screen: " + s.name, "the terminal's French message, whole words and amounts"}, layout(s.screen, cols, rows)})
	}
	return ps
}

// layout lays a retail screen out as the terminal does (device/retail).
func layout(s retail.Screen, cols, rows int) []string { return retail.MustLayout(s, cols, rows) }

// fit keeps the first rows lines, cut to cols (the ASCII patterns, made to the width).
func fit(lines []string, cols, rows int) []string {
	if len(lines) > rows {
		lines = lines[:rows]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		r := []rune(l)
		if len(r) > cols {
			r = r[:cols]
		}
		out[i] = string(r)
	}
	return out
}

// RunDisplay shows every pattern, then the cursor modes, display off/on and backlight
// off/on; after each step it calls shown, which pauses for a person or prints the
// emulated screen. It stops at the first driver error or when ctx is cancelled.
func RunDisplay(ctx context.Context, d *lcd.Dev, shown func(Step) error) error {
	for _, p := range DisplayPatterns(d.Cols(), d.Rows()) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := d.Show(p.Lines...); err != nil {
			return fmt.Errorf("diag: %s: %w", p.Name, err)
		}
		if err := shown(p.Step); err != nil {
			return err
		}
	}
	steps := []struct {
		Step
		do func() error
	}{
		{Step{"underline cursor", "underline cursor after CURSEUR"}, func() error {
			if err := d.Show("CURSEUR"); err != nil {
				return err
			}
			if err := d.MoveTo(0, 7); err != nil {
				return err
			}
			return d.Cursor(display.CursorUnderline)
		}},
		{Step{"blinking cursor", "blinking block after CURSEUR"}, func() error { return d.Cursor(display.CursorBlink) }},
		{Step{"display off", "nothing shown (backlight still on)"}, func() error {
			if err := d.Cursor(display.CursorOff); err != nil {
				return err
			}
			return d.Display(false)
		}},
		{Step{"display on", "CURSEUR back, no cursor"}, func() error { return d.Display(true) }},
		{Step{"backlight off", "backlight dark (if wired)"}, func() error { return ignoreNoBacklight(d.SetBacklight(false)) }},
		{Step{"backlight on", "backlight lit again"}, func() error { return ignoreNoBacklight(d.SetBacklight(true)) }},
	}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.do(); err != nil {
			return fmt.Errorf("diag: %s: %w", s.Name, err)
		}
		if err := shown(s.Step); err != nil {
			return err
		}
	}
	return nil
}

func ignoreNoBacklight(err error) error {
	if errors.Is(err, lcd.ErrNoBacklight) {
		return nil
	}
	return err
}
