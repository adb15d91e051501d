//go:build !production || virt

package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/drivers/gpiosim"
)

// The emulated board's side of posctl's display and io tests (a build with the emulated
// board: the lab's, or production with the qemu-virt profile). A production build has
// none: emulated_production.go.

// emulatedScreen prints the emulated board's display, and with withState its
// controller's state, when b is emulated.
func emulatedScreen(out io.Writer, b *board.Board, withState bool) {
	if b.Emulator == nil {
		return
	}
	printScreen(out, b.Emulator.LCD)
	if withState {
		printState(out, b.Emulator.LCD.State())
	}
}

// emulatedErrors are the protocol errors the emulated display saw (none when b is real).
func emulatedErrors(b *board.Board) []error {
	if b.Emulator == nil {
		return nil
	}
	return b.Emulator.LCD.Errors()
}

// emulatedPress presses the emulated board's contacts for the io test.
func emulatedPress(b *board.Board) func(board.Contact) {
	return func(c board.Contact) { emulatePress(b, c) }
}

// emulatedPins prints what the emulated output pin of step did, when b is emulated.
func emulatedPins(out io.Writer, step string, b *board.Board) {
	if b.Emulator != nil {
		printPins(out, step, b.Emulator)
	}
}

// emulatePress plays the technician on the emulated board: it holds contact c until the
// board's watcher has seen it, then lets go.
func emulatePress(b *board.Board, c board.Contact) {
	seen := map[board.Contact]func() bool{
		board.ContactOK:     b.OK.Pressed,
		board.ContactCancel: b.Cancel.Pressed,
		board.ContactTamper: func() bool { return b.Tamper.State().Open },
	}[c]
	if seen == nil {
		return
	}
	go func() {
		b.Emulator.Set(c, true)
		for deadline := time.Now().Add(time.Second); !seen() && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		b.Emulator.Set(c, false)
	}()
}

// printPins prints, after an output step, what the emulated output pin did.
func printPins(out interface{ Write([]byte) (int, error) }, step string, em *board.Emulator) {
	var p *gpiosim.Pin
	switch {
	case step == "green LED":
		p = em.Green
	case step == "red LED":
		p = em.Red
	case strings.HasPrefix(step, "buzzer"):
		p = em.Buzzer
	case step == "cash drawer":
		p = em.Drawer
	default:
		return
	}
	h := p.History()
	p.ResetHistory()
	if len(h) > 0 && !h[0].Level {
		h = h[1:] // the initial "off"
	}
	var parts []string
	for _, c := range h {
		at := c.At.Sub(h[0].At).Round(time.Millisecond)
		parts = append(parts, fmt.Sprintf("%s@%v", map[bool]string{true: "on", false: "off"}[bool(c.Level)], at))
	}
	if len(parts) > 0 {
		fmt.Fprintf(out, "     pin %s: %s\n", p.N, strings.Join(parts, " "))
	}
}
