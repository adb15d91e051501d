package assembly

import (
	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
)

// Hardware is what differs between a board and the emulator: where the board's parts, the
// printer and the scanner are.
type Hardware interface {
	// Check refuses, with an error naming the setting, what of cfg this hardware cannot
	// honour.
	Check(cfg *config.Config) error
	// OpenBoard opens the board's panel, LEDs, buzzer, drawer, buttons and tamper switch
	// (bc: the [board] and [display] sections).
	OpenBoard(bc board.Config) (*board.Board, error)
	// PrinterPort is the serial device of the printer cfg describes.
	PrinterPort(cfg config.Printer) (string, error)
	// ScannerPort is the serial device of the scanner cfg describes (not called for a
	// keyboard-wedge scanner, [scanner] input).
	ScannerPort(cfg config.Scanner) (string, error)
}

// Board is the hardware of a real board: the GPIO pins of the [board] profile, the serial
// ports of [printer] port and [scanner] port.
type Board struct{}

var _ Hardware = Board{}

// Check accepts every setting: config's own checks are the board's.
func (Board) Check(*config.Config) error { return nil }

// OpenBoard opens the board's GPIO.
func (Board) OpenBoard(bc board.Config) (*board.Board, error) { return board.Open(bc) }

// PrinterPort is [printer] port.
func (Board) PrinterPort(cfg config.Printer) (string, error) { return cfg.Port, nil }

// ScannerPort is [scanner] port.
func (Board) ScannerPort(cfg config.Scanner) (string, error) { return cfg.Port, nil }
