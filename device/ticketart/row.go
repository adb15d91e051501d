package ticketart

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/packterm/pos/validate/block"
)

// ErrNotFound is returned when the printer's file has no row for the ticket asked.
var ErrNotFound = errors.New("ticketart: no such ticket in the printer's file")

// maxLine bounds one row of the printer's file (the longest play is well under 200 bytes).
const maxLine = 4 << 10

// FindRow reads the printer's file r (gzip-compressed CSV, one or more members) as a
// stream until the row of ticket position pos of pack, and returns it. A full block's file
// takes some 9 s to the last row on one core: ctx can stop it.
func FindRow(ctx context.Context, r io.Reader, pack uint32, pos uint8) (block.Row, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return block.Row{}, fmt.Errorf("ticketart: printer's file: %w", err)
	}
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 512), maxLine)
	first := true
	for line := 1; sc.Scan(); line++ {
		if line%4096 == 0 && ctx.Err() != nil {
			return block.Row{}, fmt.Errorf("ticketart: printer's file: %w", ctx.Err())
		}
		text := sc.Text()
		if first {
			first = false
			if text+"\n" != block.PrintHeader {
				return block.Row{}, fmt.Errorf("ticketart: printer's file: line 1 is not the header %q", strings.TrimSpace(block.PrintHeader))
			}
			continue
		}
		row, err := block.ParseRow(text)
		if err != nil {
			return block.Row{}, fmt.Errorf("ticketart: printer's file line %d: %w", line, err)
		}
		if row.Pack == pack && row.Position == pos {
			return row, nil
		}
	}
	if err := sc.Err(); err != nil {
		return block.Row{}, fmt.Errorf("ticketart: printer's file: %w", err)
	}
	if first {
		return block.Row{}, fmt.Errorf("ticketart: printer's file: empty")
	}
	return block.Row{}, fmt.Errorf("%w: pack %d, ticket %d", ErrNotFound, pack, pos)
}

// FindRowFile is FindRow on the file at path.
func FindRowFile(ctx context.Context, path string, pack uint32, pos uint8) (block.Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return block.Row{}, fmt.Errorf("ticketart: %w", err)
	}
	defer f.Close()
	return FindRow(ctx, f, pack, pos)
}
