package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// journalCmd is the parent of the journal commands (journal_*.go). They open the journal
// read-only: they never write to it.
var journalCmd = &cobra.Command{Use: "journal", Short: "A terminal's journal: verify, export, show (read-only)"}

func init() { root.AddCommand(journalCmd) }

// errNoJournal: the folder given holds no journal, neither itself nor a data folder's.
var errNoJournal = errors.New("no journal")

// journalDirs are where a journal is looked for under the folder given: the journal folder
// itself, a board's data folder ([terminal] data_dir: DATA/journal) and the emulator's
// (posd --emulate --data DATA: DATA/terminal/journal).
var journalDirs = []string{".", "journal", filepath.Join("terminal", "journal")}

// journalDir finds the journal under dir: the first of journalDirs holding a journal.db.
// A folder holding none says where it looked.
func journalDir(dir string) (string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("journal: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("journal: %s is not a folder (give the journal's folder or the terminal's data folder)", dir)
	}
	looked := make([]string, 0, len(journalDirs))
	for _, sub := range journalDirs {
		d := filepath.Join(dir, sub)
		db := filepath.Join(d, journal.DBFile)
		if _, err := os.Stat(db); err == nil {
			return d, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("journal: %w", err)
		}
		looked = append(looked, db)
	}
	return "", fmt.Errorf("journal: %w in %s: none of %s exists (give the journal's folder or the terminal's data folder)",
		errNoJournal, dir, strings.Join(looked, ", "))
}

// openJournal finds the journal under dir (journalDir) and opens it read-only; pub is the
// device public key file ("" = the journal folder's device.pub). It returns the journal's
// folder.
func openJournal(dir, pub string) (*journal.Journal, string, error) {
	dir, err := journalDir(dir)
	if err != nil {
		return nil, "", err
	}
	j, err := openJournalIn(dir, pub)
	return j, dir, err
}

// openJournalIn opens the journal in dir read-only; pub is the device public key file
// ("" = DIR/device.pub).
func openJournalIn(dir, pub string) (*journal.Journal, error) {
	var key ed25519.PublicKey
	if pub != "" {
		var err error
		if key, err = ledger.LoadPublicKey(pub); err != nil {
			return nil, err
		}
	}
	return journal.Open(dir, journal.Options{ReadOnly: true, PublicKey: key})
}

// parseSince reads --since: a date (local midnight) or an RFC 3339 time; "" is the zero time.
func parseSince(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--since %q: want YYYY-MM-DD or an RFC 3339 time", s)
	}
	return t, nil
}
