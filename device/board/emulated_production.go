//go:build production && !virt

package board

import (
	"errors"
	"io"

	"github.com/packterm/pos/drivers/display"
)

// ErrNoEmulator: this build (-tags production, without virt) has no emulated board.
var ErrNoEmulator = errors.New("board: this build has no emulated board (built with -tags production)")

// Emulator is empty in a production build: no board is emulated (Board.Emulator is nil).
type Emulator struct{}

func openEmulated(Profile, display.Geometry, Config) (*Board, error) { return nil, ErrNoEmulator }

// Contact is one of the emulated board's inputs (none in a production build).
type Contact int

// The emulated contacts.
const (
	ContactOK Contact = iota + 1
	ContactCancel
	ContactTamper // active: the case is open
)

// labProfiles: a production build knows no lab board (the qemu-virt machine's parts are
// emulated; -tags production,virt adds that one profile: qemuvirt.go).
func labProfiles() []Profile { return nil }

func openConsoleBoard(Profile, Config, io.Writer) (*Board, error) { return nil, ErrNoEmulator }
