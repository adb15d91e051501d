package daemon

import (
	"fmt"
	"path/filepath"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// connectFleet connects to [fleet] url with the terminal's credentials and CA: the client
// publishes the journal, reconciles unconfirmed payouts, records conflicts, and fetches
// the retailer's pack status list, which it verifies and installs in the data directory
// (journalled, then a restart takes it in). Without a URL it returns nil: the terminal
// claims with fleet.OfflineOnly.
func (d *run) connectFleet() (*fleet.Client, error) {
	f := d.cfg.Fleet
	if f.URL == "" {
		return nil, nil
	}
	c, err := fleet.Connect(fleet.Options{
		Terminal: d.cfg.TerminalID, URL: f.URL, Credentials: f.Credentials, CA: f.CA, Journal: d.j,
		StateDir: filepath.Join(d.cfg.DataDir, "state"),
		Status: &fleet.StatusOptions{Retailer: d.retailer, Dir: d.cfg.DataDir, Trust: d.trust,
			Every: d.o.FleetStatusEvery, Installed: d.statusFromFleet},
		Clock: d.o.Clock, Logger: d.log,
	})
	if err != nil {
		return nil, fmt.Errorf("daemon: fleet: %w", err)
	}
	return c, nil
}

// statusFromFleet journals a pack status list the fleet client installed and asks for
// the restart that takes it in.
func (d *run) statusFromFleet(res ledger.Installed) {
	detail := fmt.Sprintf("version %d (fleet)", res.Version)
	if res.HadPrevious {
		detail = fmt.Sprintf("version %d, was %d (fleet)", res.Version, res.Previous)
	}
	if _, err := d.j.Append(journal.Entry{Kind: journal.KindStatusInstall, Detail: detail}); err != nil {
		d.log.Error("posd: journalling a status list install", "err", err)
	}
	d.notifyFleet()
	d.restart.request("pack status list " + detail)
}

// claimer is what the terminal claims with: the fleet client, or OfflineOnly (every claim
// "unreachable": payouts within [limits] offline_per_ticket only, unconfirmed).
func (d *run) claimer() fleet.Claimer {
	if d.fleet != nil {
		return d.fleet
	}
	return fleet.OfflineOnly{}
}

func (d *run) notifyFleet() {
	if d.fleet != nil {
		d.fleet.Notify()
	}
}
