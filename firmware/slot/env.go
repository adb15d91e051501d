package slot

import (
	"log/slog"
	"os"

	"github.com/packterm/pos/firmware/bundle"
)

// Environment variables the launcher (cmd/posboot) sets for the daemon it execs.
const (
	EnvSlot    = "POS_SLOT"         // "a" or "b"
	EnvRoot    = "POS_SLOT_ROOT"    // the slot root
	EnvDir     = "POS_SLOT_DIR"     // the booted slot's directory
	EnvVersion = "POS_SLOT_VERSION" // its firmware version
	EnvTrial   = "POS_SLOT_TRIAL"   // "1" when booted on trial
)

// Booted is the slot the running daemon was started from.
type Booted struct {
	Root, Slot, Dir string
	Version         bundle.Version
	Trial           bool
}

// Env returns the variables that describe choice c under root, as posboot passes them.
func (c Choice) Env(root string) []string {
	trial := "0"
	if c.Trial {
		trial = "1"
	}
	return []string{EnvSlot + "=" + c.Slot, EnvRoot + "=" + root, EnvDir + "=" + c.Dir,
		EnvVersion + "=" + c.Version.String(), EnvTrial + "=" + trial}
}

// BootedFromEnv reads the slot the launcher booted; false when the process was not
// started by it (a development run: nothing to mark).
func BootedFromEnv() (Booted, bool) {
	b := Booted{Root: os.Getenv(EnvRoot), Slot: os.Getenv(EnvSlot), Dir: os.Getenv(EnvDir), Trial: os.Getenv(EnvTrial) == "1"}
	if b.Root == "" || !validSlot(b.Slot, false) {
		return Booted{}, false
	}
	b.Version, _ = bundle.ParseVersion(os.Getenv(EnvVersion))
	return b, true
}

// MarkGood commits the booted slot: posd calls it once healthy (ledger loaded, hardware
// answered). It refuses to mark a slot other than the one the state says is active (the
// state moved on, e.g. a rollback happened meanwhile).
func (b Booted) MarkGood(log *slog.Logger) error {
	s, err := Open(b.Root, Options{Logger: log})
	if err != nil {
		return err
	}
	return s.locked(func() error {
		st, err := s.State()
		if err != nil {
			return err
		}
		if st.Active != b.Slot {
			return ErrNotActive
		}
		return s.markGood()
	})
}
