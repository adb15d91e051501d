package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/validate/ledger"
)

// StatusOptions make Run keep the retailer's status list up to date.
type StatusOptions struct {
	Retailer uint32
	Dir      string             // the terminal's directory (DIR/pack-status.list)
	Trust    *ledger.TrustStore // the operator keys
	Every    time.Duration      // how often Run fetches (default 10 min; the list is a few KiB to 1 MiB)
	// Installed is called after a new list is installed (the terminal journals a
	// KindStatusInstall record and reloads the list).
	Installed func(ledger.Installed)
}

// ErrNoStatus: the fleet holds no status list for the retailer.
var ErrNoStatus = errors.New("no status list for this retailer")

// FetchStatus fetches the retailer's pack status list from the fleet and installs it in
// dir as posctl status install does (ledger.InstallStatus: signature checked against
// trust, same retailer, not older). The list goes through a private temporary file in
// dir, so that nobody else can change it between the check and the use. changed is false
// when the installed list already is this one (nothing written).
func (c *Client) FetchStatus(ctx context.Context, retailer uint32, dir string, trust *ledger.TrustStore) (res ledger.Installed, changed bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	msg, err := c.nc.RequestWithContext(ctx, StatusPrefix+c.o.Terminal, []byte(strconv.FormatUint(uint64(retailer), 10)))
	if err != nil {
		return res, false, fmt.Errorf("fleet: status list: %w (%v)", ErrOffline, err)
	}
	if e := msg.Header.Get(ErrorHeader); e != "" {
		return res, false, fmt.Errorf("fleet: status list: %w (service: %.200s)", ErrOffline, e)
	}
	if len(msg.Data) == 0 {
		return res, false, fmt.Errorf("fleet: status list of retailer %d: %w", retailer, ErrNoStatus)
	}
	s, err := ledger.ParseStatus(msg.Data, trust)
	if err != nil {
		return res, false, fmt.Errorf("fleet: status list: %w", err)
	}
	if s.Retailer != retailer {
		return res, false, fmt.Errorf("fleet: status list is for retailer %d, not %d: %w", s.Retailer, retailer, ledger.ErrRetailer)
	}
	installed := filepath.Join(dir, ledger.StatusFileName)
	if old, err := os.ReadFile(installed); err == nil && bytes.Equal(old, msg.Data) {
		return ledger.Installed{Path: installed, Previous: s.Version, HadPrevious: true, Version: s.Version}, false, nil
	}
	// The list as received, staged (synced) beside the installed one for InstallStatus,
	// which copies it, checks the copy and renames the copy into place; this one is removed.
	tmp, err := atomicfile.Stage(filepath.Join(dir, "fleet-status"), 0o600, func(w io.Writer) error {
		_, err := w.Write(msg.Data)
		return err
	})
	if err != nil {
		return res, false, fmt.Errorf("fleet: status list: %w", err)
	}
	defer os.Remove(tmp)
	res, err = ledger.InstallStatus(dir, tmp, trust, retailer)
	if err != nil {
		return res, false, err
	}
	return res, true, nil
}

// syncStatus is Run's status round.
func (c *Client) syncStatus(ctx context.Context) error {
	so := c.o.Status
	every := so.Every
	if every <= 0 {
		every = 10 * time.Minute
	}
	now := c.clock.Now()
	if !c.statusAt.IsZero() && now.Sub(c.statusAt) < every {
		return nil
	}
	res, changed, err := c.FetchStatus(ctx, so.Retailer, so.Dir, so.Trust)
	if err != nil && !errors.Is(err, ErrNoStatus) {
		return err
	}
	c.statusAt = now
	if changed {
		c.log.Info("fleet: status list installed", "version", res.Version, "previous", res.Previous)
		if so.Installed != nil {
			so.Installed(res)
		}
	}
	return nil
}
