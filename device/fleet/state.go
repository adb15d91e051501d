package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/packterm/pos/device/floors"
	"github.com/packterm/pos/internal/atomicfile"
)

// StateFile is the client's progress in its state directory.
const StateFile = "fleet-state.json"

// state is what the client must remember across restarts. Losing it costs only work: the
// records are published again (the stream and the report drop the duplicates) and the
// conflicts fetched again (recorded once: Recorded).
type state struct {
	Acked      uint64          `json:"acked"`      // last journal record the stream acknowledged (with all before it)
	Reconciled uint64          `json:"reconciled"` // unconfirmed payouts up to this record are claimed
	Recorded   map[string]bool `json:"recorded"`   // conflicts written to the journal, by conflict key
	// Restored: the journal was found behind what the fleet holds of it (checkRestored).
	Restored *restoredState `json:"restored,omitempty"`
	// Floors are the install floors the fleet answered, raised only (floors.go).
	Floors floors.Floors `json:"floors,omitzero"`
	dir    string
}

func loadState(dir string) (state, error) {
	st := state{Recorded: map[string]bool{}, dir: dir}
	if dir == "" {
		return st, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, StateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("fleet: state: %w", err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		// A damaged state file is not fatal: start over, publish again (deduplicated).
		return state{Recorded: map[string]bool{}, dir: dir}, nil
	}
	if st.Recorded == nil {
		st.Recorded = map[string]bool{}
	}
	st.dir = dir
	return st, nil
}

// save writes the state atomically (temporary file, fsync, rename, fsync of the directory).
func (st *state) save() error {
	if st.dir == "" {
		return nil
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(st.dir, StateFile), b, 0o600); err != nil {
		return fmt.Errorf("fleet: state: %w", err)
	}
	return nil
}
