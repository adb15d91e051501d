package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/drivers/display/hd44780emul"
)

// boardFlags are the flags of the hardware test commands: which board, which panel,
// emulated or not.
type boardFlags struct {
	profile string
	lcd     string
	lcdRW   string
	emulate bool
}

func (f *boardFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.profile, "profile", "rpi", "board profile (pin map): "+strings.Join(board.Profiles(), ", "))
	fs.StringVar(&f.lcd, "lcd", "20x4", "display geometry: 16x2 or 20x4")
	fs.BoolVar(&f.emulate, "emulate", false, "run on the emulated board (pin-level LCD emulator, fake buttons) instead of GPIO")
	fs.StringVar(&f.lcdRW, "lcd-rw", "", "GPIO wired to the panel's R/W line, as [board.pins] lcd_rw (empty: tied to ground, the panel cannot be read back)")
}

func (f *boardFlags) open() (*board.Board, error) {
	b, err := board.Open(board.Config{Profile: f.profile, Display: f.lcd, Emulate: f.emulate, Pins: board.PinMap{LCDRW: f.lcdRW}})
	if errors.Is(err, board.ErrMissingPins) {
		return nil, fmt.Errorf("%w (no such board here? --emulate runs on the emulated board)", err)
	}
	return b, err
}

// catchSignals is cleared by the tests, which run commands in synctest bubbles where a
// signal channel is not allowed.
var catchSignals = true

// interruptible returns ctx cancelled on SIGINT or SIGTERM, so a hardware test stopped by
// the technician still releases the buzzer and the drawer solenoid, and an emulator
// stopped by Ctrl-C or kill removes its pty link.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	if !catchSignals {
		return context.WithCancel(ctx)
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// printScreen draws what an emulated panel shows in a frame of its own geometry, each
// glyph one cell wide.
func printScreen(w io.Writer, lcd *hd44780emul.Device) {
	for _, l := range lcd.Frame() {
		fmt.Fprintf(w, "  %s\n", l)
	}
}
