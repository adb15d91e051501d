package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/packterm/pos/validate/ledger"
	"github.com/spf13/cobra"
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
	block, err := strconv.ParseUint(b, 10, 16)
	if err != nil {
		return ledger.PackRange{}, fmt.Errorf("pack range %q: block: %w", s, err)
	}
	lo, hi, isRange := strings.Cut(packs, "-")
	first, err := strconv.ParseUint(lo, 10, 32)
	if err != nil {
		return ledger.PackRange{}, fmt.Errorf("pack range %q: first pack: %w", s, err)
	}
	last := first
	if isRange {
		if last, err = strconv.ParseUint(hi, 10, 32); err != nil {
			return ledger.PackRange{}, fmt.Errorf("pack range %q: last pack: %w", s, err)
		}
		if last < first {
			return ledger.PackRange{}, fmt.Errorf("pack range %q: last before first", s)
		}
	}
	return ledger.PackRange{Block: uint16(block), First: uint32(first), Count: uint32(last - first + 1), State: state}, nil
}
