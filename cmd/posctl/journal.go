package main

import (
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
	"github.com/spf13/cobra"
)

// journalCmd is the parent of the journal commands (journal_*.go). They open the journal
// read-only: they never write to it.
var journalCmd = &cobra.Command{Use: "journal", Short: "A terminal's journal: verify, export, show (read-only)"}

func init() { root.AddCommand(journalCmd) }

// openJournal opens the journal in dir read-only; pub is the device public key file
// ("" = DIR/device.pub).
func openJournal(dir, pub string) (*journal.Journal, error) {
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
