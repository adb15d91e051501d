package terminal

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/journal"
)

// JournalHeadCopy is the copy of the journal's head marker the terminal keeps in its
// state directory (journal.Options.HeadCopies): outside the journal's directory, so that
// removing that directory whole does not remove every sign that it was there.
func JournalHeadCopy(stateDir string) string { return filepath.Join(stateDir, journal.HeadFile) }

// maxStateFile bounds what the witness reads of a state file.
const maxStateFile = 1 << 16

// JournalWitness is the journal's witness (journal.Options.Witness) of a terminal whose
// state directory is stateDir and printer spool spoolDir: the last operation finished
// (done.seq), the fleet client's progress (fleet-state.json: the last record the fleet
// acknowledged), and receipts waiting in the spool. Each is written only once a journal
// exists, so any of them means this terminal had one. The head marker copy in stateDir is
// the journal's own (HeadCopies), not read here.
func JournalWitness(stateDir, spoolDir string) func() []journal.Evidence {
	return func() []journal.Evidence {
		var ev []journal.Evidence
		if b, ok := readState(filepath.Join(stateDir, doneFile)); ok {
			seq := parseDone(b)
			ev = append(ev, journal.Evidence{What: fmt.Sprintf("state/%s (record %d)", doneFile, seq), Seq: seq})
		}
		if b, ok := readState(filepath.Join(stateDir, fleet.StateFile)); ok {
			var st struct {
				Acked uint64 `json:"acked"`
			}
			_ = json.Unmarshal(b, &st) // a damaged file is still a sign
			ev = append(ev, journal.Evidence{What: fmt.Sprintf("state/%s (record %d)", fleet.StateFile, st.Acked), Seq: st.Acked})
		}
		if n := spoolCount(spoolDir); n > 0 {
			ev = append(ev, journal.Evidence{What: fmt.Sprintf("spool (%d receipts)", n)})
		}
		return ev
	}
}

// readState reads a small state file; false when there is none.
func readState(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, maxStateFile)
	n, _ := f.Read(b)
	return b[:n], true
}

// spoolCount counts the receipts waiting in the printer's spool.
func spoolCount(dir string) int {
	if dir == "" {
		return 0
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n
}
