package daemon

import (
	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/validate/journal"
)

// Running is what a running daemon is made of, handed to Options.Started for read-only
// views (the technician's status page) and tests.
type Running struct {
	Config   *config.Config
	Terminal *terminal.Terminal
	Journal  *journal.Journal
	Board    *board.Board
	Printer  *printer.Printer
	Data     *Data
	Health   *Health // live and healthy, for the watchdog and the trial boot
	// Maintenance is the address the maintenance link listens on (the TCP address, or
	// the serial device), "" when it is off.
	Maintenance string
	Fleet       *fleet.Client // nil without [fleet] url
	// Booted is the firmware slot posboot started posd from (Options.Booted; nil: not
	// started by posboot).
	Booted *slot.Booted
}
