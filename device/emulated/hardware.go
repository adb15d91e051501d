package emulated

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/packterm/pos/device/assembly"
	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/drivers/gpiosim"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
)

// hardware is a rig's emulated hardware for the assembly: the board of the configuration's
// profile on fake pins and the pin-level panel emulator, the printer and the scanner the
// configuration describes on pseudo-terminals in the rig's directory.
type hardware struct{ r *Rig }

var _ assembly.Hardware = (*hardware)(nil)

// Check is CheckConfig.
func (h *hardware) Check(cfg *config.Config) error { return CheckConfig(cfg) }

// CheckConfig refuses what of cfg cannot be emulated: a keyboard-wedge scanner ([scanner]
// input reads an evdev device of this machine). Everything else is emulated as configured
// (the board of [board] profile and pins, the [display] size, the printer's columns, code
// page and profile, the scanner's suffix and AIM identifiers); the ports are
// pseudo-terminals in the rig's directory, which have no line speed: [printer] and
// [scanner] port and baud change nothing.
func CheckConfig(cfg *config.Config) error {
	if cfg.Scanner.Input != "" {
		return fmt.Errorf("emulated: [scanner] input = %q: a keyboard-wedge scanner cannot be emulated (the emulated scanner is a serial one: remove input)", cfg.Scanner.Input)
	}
	return nil
}

// OpenBoard opens the emulated board; the panel's datasheet waits run on a virtual clock
// (gpiosim) so that they cost no real time.
func (h *hardware) OpenBoard(bc board.Config) (*board.Board, error) {
	bc.Emulate = true
	bc.DisplayClock = gpiosim.NewClock()
	return board.Open(bc)
}

// PrinterPort plugs in the emulated printer of cfg: its columns, and no GS ( H for the
// legacy profile.
func (h *hardware) PrinterPort(cfg config.Printer) (string, error) {
	emu, err := printeremul.NewEmulator(link(h.r.opts.Dir, "printer.tty"), printeremul.Config{
		Columns: cfg.Columns, NoProcessID: cfg.NoPrintConfirm(), Logger: h.r.opts.Logger})
	if err != nil {
		return "", err
	}
	h.r.Printer = emu
	return emu.Path(), nil
}

// ScannerPort plugs in the emulated scanner of cfg: its suffix and AIM identifiers.
func (h *hardware) ScannerPort(cfg config.Scanner) (string, error) {
	emu, err := scanneremul.New(link(h.r.opts.Dir, "scanner.tty"), scanneremul.Config{Suffix: cfg.Suffix, AIM: cfg.AIM})
	if err != nil {
		return "", err
	}
	h.r.Scanner = emu
	return emu.Path(), nil
}

func link(dir, name string) string {
	p := filepath.Join(dir, name)
	_ = os.Remove(p) // a link left by a killed run
	return p
}
