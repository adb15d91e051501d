//go:build !production

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/daemon"
	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/device/maint"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/journal"
)

// emulatedMaintenance serves the emulated terminal's maintenance link on f.maintenance
// (tcp:HOST:PORT or serial:DEV) in the background until ctx ends: the flash server posd
// runs on a board, answering only to the technician token (--token-sha256 or the
// configuration's), firmware signed by a key of the configuration's [keys] firmware into
// slots under DIR/maint/slots, provisioned files verified as posd verifies them into
// DIR/maint. Its operator trust is the --pub key (the demo key without one) until an
// operator key statement signed by it is installed in DIR/maint; a provisioned
// configuration must keep the running one's trust settings. The emulated terminal keeps running on its block: the files are there to
// inspect or to pass back with --ledger and --packs. Once it listens, it returns a wait
// that returns when the link has stopped (after ctx ended). A configuration installed is
// journalled in j as a board journals it (daemon.InstallRecord: every setting changed, old
// and new values); the other files are not, since the emulated terminal does not take them
// in (a board's start would hold them as version floors against its own block).
func emulatedMaintenance(ctx context.Context, f flags, dir string, cfg config.Config, j *journal.Journal, log *slog.Logger, stderr io.Writer) (wait func(), err error) {
	pub := f.pub
	if pub == "" {
		d, err := emulated.LoadDemo(filepath.Join(dir, "demo"), demoBlock)
		if err != nil {
			return nil, err
		}
		pub = d.Pub
	}
	retailer, err := strconv.ParseUint(cfg.RetailerID, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("maintenance link: retailer %q: %w", cfg.RetailerID, err)
	}
	mdir := filepath.Join(dir, "maint")
	srv, err := maint.NewServer(maint.Options{
		TokenSHA256: f.tokenSHA256, FirmwareKeys: cfg.Keys.Firmware, SlotRoot: filepath.Join(mdir, "slots"),
		Target: daemon.FirmwareTarget(cfg.Board), SpoolDir: filepath.Join(mdir, "spool"),
		Site: maint.Site{Dir: mdir, ConfigPath: filepath.Join(mdir, "posd.toml"), Running: &cfg,
			OperatorKeys: []string{pub}, Retailer: uint32(retailer), Terminal: cfg.TerminalID},
		OnInstalled: func(kind flash.Kind, info string) {
			fmt.Fprintf(stderr, "posd: maintenance link: %s (in %s)\n", info, mdir)
			if kind != flash.Config {
				return
			}
			e := daemon.InstallRecord(kind, info, func() string { return daemon.ConfigChanges(filepath.Join(mdir, "posd.toml"), &cfg) })
			if _, err := j.AppendTrace(e); err != nil {
				log.Error("posd: journalling a configuration installed", "err", err)
			}
		},
		Logger: log,
	})
	if err != nil {
		return nil, fmt.Errorf("maintenance link: %w (give --token-sha256, or --config with [technician] token_sha256)", err)
	}
	ready := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := maint.Serve(ctx, srv, f.maintenance, maint.DefaultBaud, log, func(addr string) {
			fmt.Fprintf(stderr, "posd: maintenance link on %s (files into %s)\n", addr, mdir)
			ready <- nil
		})
		if err != nil {
			ready <- err
			log.Error("posd: maintenance link stopped", "err", err)
		}
	}()
	wait = func() { <-done }
	select {
	case err := <-ready:
		return wait, err
	case <-ctx.Done():
		return wait, nil
	}
}
