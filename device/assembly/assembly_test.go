package assembly

import (
	"errors"
	"testing"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/fleet"
)

// TestTerminalConfigCarriesEveryLimit: the terminal gets every limit of [limits], the
// token and the identity from the one configuration (the emulator once re-declared the
// limits and lost the offline ones).
func TestTerminalConfigCarriesEveryLimit(t *testing.T) {
	cfg := config.Emulated()
	cfg.DataDir = t.TempDir()
	cfg.Limits = config.Limits{PerTicket: 40_00, PerDay: 900_00, OfflinePerTicket: 5_00, OfflineTotal: 20_00}
	cfg.Technician.TokenSHA256 = "ab"
	tc := TerminalConfig(&cfg, Options{Data: Data{Refused: errors.New("bad list")}})
	if tc.PerTicket != 40_00 || tc.PerDay != 900_00 || tc.OfflinePerTicket != 5_00 || tc.OfflineTotal != 20_00 {
		t.Errorf("limits %+v", tc)
	}
	if tc.Terminal != cfg.TerminalID || tc.RetailerName != cfg.RetailerName || tc.UnlockTokenSHA256 != "ab" || !tc.DataRefused {
		t.Errorf("identity, token or refused data lost: %+v", tc)
	}
}

// TestClaimer: without [fleet] url a terminal claims with fleet.OfflineOnly, as a board
// does, unless it is the emulator's demo terminal (Alone); Options.Claimer wins.
func TestClaimer(t *testing.T) {
	cfg := config.Emulated()
	a := &Terminal{Config: &cfg}
	if c, err := a.connectFleet(Options{}); err != nil || c != (fleet.OfflineOnly{}) {
		t.Errorf("no url: %T %v, want fleet.OfflineOnly", c, err)
	}
	if c, err := a.connectFleet(Options{Alone: true}); err != nil || c != nil {
		t.Errorf("alone: %T %v, want none", c, err)
	}
	fake := &fleet.Fake{Terminal: cfg.TerminalID}
	if c, err := a.connectFleet(Options{Claimer: fake}); err != nil || c != fake {
		t.Errorf("claimer: %T %v", c, err)
	}
}

// refusing is hardware that refuses every configuration and records what was opened.
type refusing struct{ opened int }

var errRefused = errors.New("test: cannot do that")

func (h *refusing) Check(*config.Config) error { return errRefused }
func (h *refusing) OpenBoard(board.Config) (*board.Board, error) {
	h.opened++
	return nil, errRefused
}
func (h *refusing) PrinterPort(config.Printer) (string, error) { h.opened++; return "", errRefused }
func (h *refusing) ScannerPort(config.Scanner) (string, error) { h.opened++; return "", errRefused }

// TestOpenRefusesWhatHardwareCannot: a setting the hardware refuses stops the assembly
// before anything is opened (no journal, no port).
func TestOpenRefusesWhatHardwareCannot(t *testing.T) {
	cfg := config.Emulated()
	cfg.DataDir = t.TempDir()
	h := &refusing{}
	if _, err := Open(&cfg, h, Options{}); !errors.Is(err, errRefused) || h.opened != 0 {
		t.Fatalf("Open: %v, %d parts opened", err, h.opened)
	}
}
