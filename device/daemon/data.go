package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/ledger"
)

// Data is what the terminal decides with, read from a data directory.
type Data struct {
	Ledgers *ledger.Set       // one per block installed; empty: none
	Status  retail.PackStatus // nil: none installed
	// Refused is why the daemon holds none of the installed files: one of them failed its
	// checks (LoadData's error). The terminal then decides nothing and says so, and the
	// maintenance link and the fleet client stay up to install good files.
	Refused error
	// Missing is what was never installed, decided here once (LoadData): no operator key
	// trusted, no ledger, no pack status list. The terminal names it at rest instead of
	// SCANNEZ UN CODE; nothing is missing when the data was refused (Refused says so).
	Missing retail.Missing
	// Limits is the operator limits statement installed, verified and for this terminal
	// or its retailer: its limits are in force over [limits]. nil: none installed.
	Limits *ledger.LimitsStatement
}

// Close releases the ledgers.
func (d *Data) Close() error { return d.Ledgers.Close() }

// LoadData opens every ledger installed in dir (block-N.ledger, one per block; none is not
// an error: the terminal says so on each validation), the pack status list and the
// operator limits statement, all verified against trust, the list for this retailer only,
// the statement for this terminal or its retailer. A file that is there but fails its
// checks, or whose block is not the one its name says, is an error: fail closed.
func LoadData(dir string, trust *ledger.TrustStore, terminal string, retailer uint32) (*Data, error) {
	ls, err := openLedgers(dir, trust)
	if err != nil {
		return nil, err
	}
	d := &Data{}
	if d.Ledgers, err = ledger.NewSet(ls...); err != nil {
		closeAll(ls)
		return nil, fmt.Errorf("daemon: %w", err)
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
	if d.Limits, err = ledger.LoadLimits(filepath.Join(dir, ledger.LimitsStatementFile), trust, terminal, retailer); err != nil {
		d.Close()
		return nil, fmt.Errorf("daemon: %w", err)
	}
	d.Missing = missing(trust, d)
	return d, nil
}

// missing is what the terminal lacks of what it validates and sells with: operator keys
// (the trust in force holds none: the anchors of [keys] operator, or an empty directory,
// and no key statement), ledgers, a pack status list.
func missing(trust *ledger.TrustStore, d *Data) retail.Missing {
	var m retail.Missing
	if trust.Len() == 0 {
		m |= retail.MissingOperatorKeys
	}
	if d.Ledgers.Len() == 0 {
		m |= retail.MissingLedger
	}
	if d.Status == nil {
		m |= retail.MissingStatus
	}
	return m
}

// openLedgers opens each block-*.ledger of dir, checking that the block inside is the one
// the name says (Install names them so).
func openLedgers(dir string, trust *ledger.TrustStore) ([]*ledger.Ledger, error) {
	names, err := filepath.Glob(filepath.Join(dir, "block-*.ledger"))
	if err != nil {
		return nil, fmt.Errorf("daemon: ledgers: %w", err)
	}
	var ls []*ledger.Ledger
	for _, name := range names {
		l, err := ledger.OpenFile(name, trust)
		if err != nil {
			closeAll(ls)
			return nil, err
		}
		ls = append(ls, l)
		if b := l.Header().Block; ledger.FileName(b) != filepath.Base(name) {
			closeAll(ls)
			return nil, fmt.Errorf("daemon: %s holds block %d: %w", filepath.Base(name), b, ledger.ErrFormat)
		}
	}
	return ls, nil
}

func closeAll(ls []*ledger.Ledger) {
	for _, l := range ls {
		l.Close()
	}
}

// provisionHint says in the start log how the technician gives the terminal what it lacks.
func provisionHint(m retail.Missing) string {
	if m&retail.MissingOperatorKeys != 0 {
		return "operator keys come with the image ([keys] operator) or a signed firmware bundle, never over the maintenance link; then posctl provision --ledger, --status"
	}
	return "posctl provision --to LINK --ledger FILE --status FILE (the maintenance link); the terminal restarts at rest to take them in"
}
