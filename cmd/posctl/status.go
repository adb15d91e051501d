package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/ledger"
)

// statusCmd is the parent of the pack status list commands (status_*.go).
var statusCmd = &cobra.Command{Use: "status", Short: "Pack status lists: packs delivered to a retailer, packs void or stolen"}

func init() { root.AddCommand(statusCmd) }

// parsePackRange reads BLOCK:FIRST or BLOCK:FIRST-LAST (pack numbers 0-based, inclusive).
func parsePackRange(s string, state ledger.PackState) (ledger.PackRange, error) {
	b, packs, ok := strings.Cut(s, ":")
	if !ok {
		return ledger.PackRange{}, fmt.Errorf("pack range %q: want BLOCK:FIRST[-LAST]", s)
	}
	block, err := numberArg[uint16](blockNumber, b)
	if err != nil {
		return ledger.PackRange{}, fmt.Errorf("pack range %q: %w", s, err)
	}
	lo, hi, isRange := strings.Cut(packs, "-")
	first, err := numberArg[uint32](packNumber, lo)
	if err != nil {
		return ledger.PackRange{}, fmt.Errorf("pack range %q: first %w", s, err)
	}
	last := first
	if isRange {
		if last, err = numberArg[uint32](packNumber, hi); err != nil {
			return ledger.PackRange{}, fmt.Errorf("pack range %q: last %w", s, err)
		}
		if last < first {
			return ledger.PackRange{}, fmt.Errorf("pack range %q: last before first", s)
		}
	}
	return ledger.PackRange{Block: block, First: first, Count: last - first + 1, State: state}, nil
}
