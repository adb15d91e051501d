package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/ledger"
)

// Data is what the terminal decides with, read from a data directory.
type Data struct {
	Ledger *ledger.Ledger    // nil: none installed
	Status retail.PackStatus // nil: none installed
}

// Close releases the ledger.
func (d *Data) Close() error {
	if d.Ledger != nil {
		return d.Ledger.Close()
	}
	return nil
}

// LoadData opens the ledger installed in dir (the highest block's block-N.ledger; none is
// not an error: the terminal says so on each validation) and the pack status list, both
// verified against trust, the list for this retailer only. A file that is there but fails
// its checks is an error: fail closed.
func LoadData(dir string, trust *ledger.TrustStore, retailer uint32) (*Data, error) {
	d := &Data{}
	names, err := filepath.Glob(filepath.Join(dir, "block-*.ledger"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	if len(names) > 0 {
		if d.Ledger, err = ledger.OpenFile(names[len(names)-1], trust); err != nil {
			return nil, err
		}
	}
	st, err := ledger.LoadStatus(filepath.Join(dir, ledger.StatusFileName), trust)
	switch {
	case err == nil && st.Retailer != retailer:
		d.Close()
		return nil, fmt.Errorf("daemon: pack status list of retailer %d, this terminal is retailer %d: %w", st.Retailer, retailer, ledger.ErrRetailer)
	case err == nil:
		d.Status = st
	case errors.Is(err, fs.ErrNotExist):
	default:
		d.Close()
		return nil, err
	}
	return d, nil
}
