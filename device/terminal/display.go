package terminal

import (
	"github.com/packterm/pos/device/retail"
)

// PanelReader is a screen that can be read back: the HD44780 driver (display.Dev) on a
// board that wires the panel's R/W line. CanCheck says whether it is wired; Check reads
// the panel and compares it with what was shown; Init initialises it again (a panel back
// from a power loss holds nothing).
type PanelReader interface {
	CanCheck() bool
	Check() error
	Init() error
}

// Display health as DisplayHealth reports it.
const (
	DisplayUnchecked = "not checked (R/W not wired)"
	DisplayOK        = "ok (read back)"
)

// panel is the screen as a PanelReader, nil when it cannot be read back.
func (t *Terminal) panel() PanelReader {
	p, ok := t.parts.Screen.(PanelReader)
	if !ok || !p.CanCheck() {
		return nil
	}
	return p
}

// checkDisplay reads the panel back, when it can be: a panel that does not answer is a
// fault, since nothing may be sold or paid on a screen the retailer cannot read (the red
// LED and the buzzer say it); the fault resumes with then once the panel answers again.
func (t *Terminal) checkDisplay(then State) State {
	if t.displayAnswers() {
		return nil
	}
	return fault{kind: retail.FaultDisplay, then: then}
}

// displayAnswers checks the panel (true when it cannot be read back) and keeps the outcome
// for DisplayHealth, logging each change.
func (t *Terminal) displayAnswers() bool {
	p := t.panel()
	health := DisplayUnchecked
	if p != nil {
		health = DisplayOK
		if err := p.Check(); err != nil {
			health = "not responding: " + err.Error()
		}
	}
	t.mu.Lock()
	was := t.displayHealth
	t.displayHealth = health
	t.mu.Unlock()
	if health != was {
		switch {
		case health == DisplayOK && was != "":
			t.log.Info("terminal: display answers again")
		case health != DisplayOK && health != DisplayUnchecked:
			t.log.Error("terminal: display does not answer: nothing is sold or paid until it does", "health", health)
		}
	}
	return health == DisplayOK || health == DisplayUnchecked
}

// reviveDisplay initialises the panel again, shows s and checks it: true once it answers.
func (t *Terminal) reviveDisplay(s retail.Screen) bool {
	p := t.panel()
	if p == nil {
		return true
	}
	if err := p.Init(); err != nil {
		t.log.Debug("terminal: display init", "err", err)
	}
	t.show(s)
	return t.displayAnswers()
}

// DisplayHealth says whether the panel answered its last read-back: DisplayOK,
// DisplayUnchecked, or "not responding: …" ("" before the first check).
func (t *Terminal) DisplayHealth() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.displayHealth
}
