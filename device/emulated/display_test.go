package emulated

import (
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/journal"
)

// waitScreen polls the terminal's screen (real time) until it holds want.
func (e *e2e) waitScreen(want string) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(e.rig.Terminal.Screen(), " "), want) {
		if time.Now().After(deadline) {
			e.t.Fatalf("screen %q, want %q", e.rig.Terminal.Screen(), want)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestDeadDisplay: the emulated board wires the panel's R/W line, so the terminal reads the
// panel back. A panel that dies at rest is found at the next status poll: the terminal
// goes to the display fault (red LED), takes no scan, and comes back once the panel is
// plugged in again (initialised and showing the idle screen). A panel that dies while a
// winner is offered: the retailer's OK pays nothing, and the offer comes back with the
// panel.
func TestDeadDisplay(t *testing.T) {
	e := startE2E(t, "20x4")
	lcd := e.rig.Board.Emulator.LCD
	five := e.tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	if h := e.rig.Terminal.DisplayHealth(); h != "" {
		t.Fatalf("health before any check: %q", h)
	}

	lcd.SetDead(true)
	e.clock.Advance(31 * time.Second) // the idle status poll
	e.waitScreen("ÉCRAN EN PANNE")
	if h := e.rig.Terminal.DisplayHealth(); !strings.HasPrefix(h, "not responding") {
		t.Errorf("health %q", h)
	}
	if !e.rig.Board.Red.IsOn() {
		t.Error("red LED off during the display fault")
	}
	e.do(e.tb.code(five)) // not taken
	e.waitScreen("ÉCRAN EN PANNE")
	lcd.SetDead(false)
	e.clock.Advance(3 * time.Second) // the fault's poll
	e.waitScreen("SCANNEZ UN CODE")
	if got := strings.Join(lcd.Visible(), " "); !strings.Contains(got, "SCANNEZ UN CODE") {
		t.Errorf("panel after its return: %q", got)
	}
	if h := e.rig.Terminal.DisplayHealth(); h != terminal.DisplayOK {
		t.Errorf("health after the return: %q", h)
	}

	e.do(e.tb.code(five))
	e.expect("GAGNANT")
	lcd.SetDead(true)
	e.do("!ok")
	e.waitScreen("ÉCRAN EN PANNE")
	if n := e.count(journal.KindPayout, five); n != 0 {
		t.Fatalf("paid on a dead panel: %d payouts", n)
	}
	lcd.SetDead(false)
	e.clock.Advance(3 * time.Second)
	e.waitScreen("GAGNANT")
	e.do("!ok")
	e.expect("PAYÉ 5,00 €")
	if n := e.count(journal.KindPayout, five); n != 1 {
		t.Errorf("%d payouts", n)
	}
	for _, err := range lcd.Errors() {
		t.Errorf("panel protocol: %v", err)
	}
	lcd.ClearErrors()
}
