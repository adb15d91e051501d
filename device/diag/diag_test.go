package diag_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/diag"
	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/gpiosim"
)

// emulated opens an emulated board on the real clock: the tests run inside a synctest
// bubble, where time is virtual and advances only when every goroutine of the test (input
// watchers, step deadlines, the technician's hands) is blocked, so nothing sleeps for
// real and no deadline can pass while a watcher has work to do.
func emulated(t *testing.T, geo string) *board.Board {
	b, err := board.Open(board.Config{Emulate: true, Display: geo})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, err := range b.Emulator.LCD.Errors() {
			t.Error(err)
		}
	})
	return b
}

func TestRunDisplay(t *testing.T) {
	for _, geo := range []string{"16x2", "20x4"} {
		t.Run(geo, func(t *testing.T) { synctest.Test(t, func(t *testing.T) { testRunDisplay(t, geo) }) })
	}
}

func testRunDisplay(t *testing.T, geo string) {
	b := emulated(t, geo)
	seen := map[string][]string{}
	err := diag.RunDisplay(context.Background(), b.Display, func(s diag.Step) error {
		seen[s.Name] = b.Emulator.LCD.Visible()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cols := b.Display.Cols()
	if got := seen["all dots"][0]; got != strings.Repeat("█", cols) {
		t.Errorf("all dots: %q", got)
	}
	for r, line := range seen["line addressing"] {
		n := string(rune('1' + r))
		if !strings.HasPrefix(line, n+">") || !strings.HasSuffix(line, "<"+n) {
			t.Errorf("line addressing row %d: %q", r, line)
		}
	}
	if got := seen["custom glyphs"][0]; got != "{€} {É} {È} {Ê} {À} {Ç} {Ù} {Â}"+strings.Repeat(" ", cols-15) {
		t.Errorf("custom glyphs: %q", got)
	}
	// ÉÈÊËÀÂÇÙÛÎÏÔ €: € and the first seven capitals in priority order get the 8 slots.
	if got := strings.TrimRight(seen["glyph shortage"][0], " "); got != "{É}{È}{Ê}E{À}{Â}{Ç}{Ù}UIIO {€}" {
		t.Errorf("glyph shortage: %q", got)
	}
	if got := strings.TrimSpace(seen["display off"][0]); got != "" {
		t.Errorf("display off shows %q", got)
	}
	if got := seen["display on"][0]; !strings.HasPrefix(got, "CURSEUR") {
		t.Errorf("display on: %q", got)
	}
}

func TestRunIO(t *testing.T) { synctest.Test(t, testRunIO) }

func testRunIO(t *testing.T) {
	b := emulated(t, "20x4")
	em := b.Emulator
	// press holds a contact until its watcher has seen it, then a little longer.
	press := func(in *gpiosim.Input, seen func() bool) {
		go func() {
			in.Press()
			for !seen() {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(50 * time.Millisecond)
			in.Release()
		}()
	}
	results, err := diag.RunIO(context.Background(), b, diag.IOOpts{
		Prompt: func(s diag.Step) {
			switch s.Name {
			case "OK button":
				press(em.OK, b.OK.Pressed)
			case "CANCEL button":
				press(em.Cancel, b.Cancel.Pressed)
			case "tamper switch":
				press(em.Tamper, func() bool { return b.Tamper.State().Open })
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 10 {
		t.Errorf("%d results", len(results))
	}
	for _, r := range results {
		if !r.OK {
			t.Errorf("%s failed: %s", r.Name, r.Detail)
		}
	}
	if h := em.Green.History(); len(h) != 3 || h[2].At.Sub(h[1].At) != time.Second {
		t.Errorf("green LED history %v", h)
	}
	if h := em.Drawer.History(); len(h) != 3 {
		t.Errorf("drawer history %v", h)
	}
	// Beeps: key 1, ok 1, refused 2, attention 3 → 7 rises.
	rises := 0
	for _, c := range em.Buzzer.History() {
		if c.Level {
			rises++
		}
	}
	if rises != 7 {
		t.Errorf("%d beeps", rises)
	}
	if got := strings.TrimSpace(em.LCD.Visible()[1]); got != "TERMIN{É}" {
		t.Errorf("last screen row 1: %q", got)
	}
}

func TestRunIOFailures(t *testing.T) { synctest.Test(t, testRunIOFailures) }

func testRunIOFailures(t *testing.T) {
	b := emulated(t, "16x2")
	em := b.Emulator
	results, err := diag.RunIO(context.Background(), b, diag.IOOpts{
		Wait: 2 * time.Second, SkipDrawer: true,
		Prompt: func(s diag.Step) {
			if s.Name == "OK button" { // the technician finds CANCEL where OK should be
				go func() {
					em.Cancel.Press()
					for !b.Cancel.Pressed() {
						time.Sleep(time.Millisecond)
					}
					em.Cancel.Release()
				}()
			}
			// nobody presses CANCEL or opens the case
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"OK button":     "cancel pressed instead",
		"CANCEL button": "no press within 2s",
		"tamper switch": "0 edges within 2s",
		"cash drawer":   "skipped",
	}
	for _, r := range results {
		if w, ok := want[r.Name]; ok {
			if !strings.Contains(r.Detail, w) {
				t.Errorf("%s: %q, want %q", r.Name, r.Detail, w)
			}
			if r.OK != (w == "skipped") {
				t.Errorf("%s: OK = %v", r.Name, r.OK)
			}
		}
	}
	if len(em.Drawer.History()) != 1 { // only the initial low
		t.Errorf("drawer moved: %v", em.Drawer.History())
	}
}

// TestDisplayPatternsKeepWords: on both panels, the French patterns are laid out whole (no
// "12,5" for 12,50 €, no "GRATTEZ ET SCANN").
func TestDisplayPatternsKeepWords(t *testing.T) {
	for _, g := range [][2]int{{16, 2}, {20, 4}} {
		var all []string
		for _, p := range diag.DisplayPatterns(g[0], g[1]) {
			if len(p.Lines) > g[1] {
				t.Errorf("%dx%d %s: %d rows", g[0], g[1], p.Name, len(p.Lines))
			}
			for _, l := range p.Lines {
				if n := len([]rune(l)); n > g[0] {
					t.Errorf("%dx%d %s: row %q of %d", g[0], g[1], p.Name, l, n)
				}
			}
			all = append(all, strings.Join(p.Lines, "|"))
		}
		text := strings.Join(all, "\n")
		for _, want := range []string{"12,50 €", "GRATTEZ ET", "SCANNEZ", "LE CODE"} {
			if !strings.Contains(text, want) {
				t.Errorf("%dx%d: %q missing from the patterns", g[0], g[1], want)
			}
		}
	}
}

// TestIOScreensFit: the IO test's screens fit both panels whole, in every language, and
// French is the default.
func TestIOScreensFit(t *testing.T) {
	for _, tag := range locale.Tags() {
		l, _ := locale.Get(tag)
		for _, what := range [][]string{{l.Text("diag.led_green")}, {l.Text("diag.led_red")}, {l.Text("diag.buzzer", "attention")},
			{l.Text("diag.drawer")}, {l.Text("diag.press"), l.Text("diag.button_cancel")}, {l.Text("diag.done")}} {
			for _, g := range [][2]int{{16, 2}, {20, 4}} {
				if _, err := retail.Layout(diag.IOScreen(l, what...), g[0], g[1]); err != nil {
					t.Errorf("%s: %v", tag, err)
				}
				if _, err := retail.Layout(diag.TamperScreen(l), g[0], g[1]); err != nil {
					t.Errorf("%s: %v", tag, err)
				}
			}
		}
	}
	if got, _ := retail.Layout(diag.IOScreen(nil, "LED VERTE"), 20, 4); strings.Join(got, "|") != "TEST E/S|LED VERTE" {
		t.Errorf("default IO screen %q", got)
	}
}
