package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/maint"
	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/validate/journal"
)

// FirmwareTarget is the target of the running posd on board: the bundles its maintenance
// link accepts (GOOS, GOARCH and, on arm, the GOARM level it was built for).
func FirmwareTarget(board string) bundle.Target {
	t := bundle.Target{OS: runtime.GOOS, Arch: runtime.GOARCH, Board: board}
	if t.Arch == "arm" {
		t.ARM = 7 // Go's default GOARM when building on another machine
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "GOARM" && s.Value != "" && s.Value[0] >= '5' && s.Value[0] <= '7' {
					t.ARM = int(s.Value[0] - '0')
				}
			}
		}
	}
	return t
}

// maintenance builds the maintenance link's server, or nil when [maintenance] listen is
// empty or no technician token is configured (fail closed: nobody to answer to).
// Firmware is accepted only when [keys] firmware names a key and posboot started posd
// from a slot (the slot root comes from it); provisioned files go where LoadData and
// Load read them, each journalled once installed and followed by a restart.
func (d *run) maintenance() (*flash.Server, error) {
	cfg := d.cfg
	if cfg.Maintenance == "" {
		return nil, nil
	}
	mo := maint.Options{
		TokenSHA256: cfg.Technician.TokenSHA256, FirmwareKeys: cfg.Keys.Firmware,
		Target: FirmwareTarget(cfg.Board), SpoolDir: filepath.Join(cfg.DataDir, "maint"),
		Site: maint.Site{Dir: cfg.DataDir, ConfigPath: d.o.ConfigPath, Running: d.cfg,
			OperatorKeys: cfg.Keys.Operator, Retailer: d.retailer, Terminal: cfg.TerminalID},
		OnInstalled: d.installed, Clock: d.clock, Logger: d.log,
	}
	if d.o.Booted != nil {
		mo.SlotRoot = d.o.Booted.Root
	}
	switch {
	case len(cfg.Keys.Firmware) == 0:
		d.log.Info("posd: maintenance link: no [keys] firmware: firmware bundles are refused")
	case mo.SlotRoot == "":
		d.log.Info("posd: maintenance link: not started by posboot (no slot root): firmware bundles are refused")
	}
	srv, err := maint.NewServer(mo)
	if errors.Is(err, maint.ErrNoToken) {
		d.log.Warn("posd: maintenance link off: no [technician] token_sha256", "listen", cfg.Maintenance)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("daemon: maintenance link: %w", err)
	}
	if err := os.MkdirAll(mo.SpoolDir, 0o700); err != nil {
		return nil, fmt.Errorf("daemon: maintenance link: %w", err)
	}
	return srv, nil
}

// installed journals what the maintenance link installed and asks for the restart that
// takes it in.
func (d *run) installed(kind flash.Kind, info string) {
	e := InstallRecord(kind, info, func() string { return ConfigChanges(d.o.ConfigPath, d.cfg) })
	if _, err := d.j.AppendTrace(e); err != nil { // the floor, even on a clock set back
		d.log.Error("posd: journalling an install", "kind", kind.String(), "err", err)
	}
	d.notifyFleet()
	d.restart.request(kind.String() + " installed over the maintenance link")
}

// InstallRecord is the journal record of what the maintenance link installed: kind, and
// info the link's answer ("ledger installed: block 7, version 2 (was 1)", …; the start's
// version floors read it back, device/terminal datafloor.go). A configuration's record
// holds changes(), what it changes (ConfigChanges). The Detail is cut to the journal's
// bound, on a character boundary.
func InstallRecord(kind flash.Kind, info string, changes func() string) journal.Entry {
	e := journal.Entry{Kind: journal.KindConfigChange, Detail: kind.String() + ": " + info}
	switch kind {
	case flash.Ledger:
		e = journal.Entry{Kind: journal.KindLedgerInstall, Detail: info}
	case flash.Status:
		e = journal.Entry{Kind: journal.KindStatusInstall, Detail: info + " (maintenance link)"}
	case flash.Config:
		e.Detail = "config installed (maintenance link): " + changes()
	}
	if len(e.Detail) > journal.MaxDetailLen { // cut on a character: the journal takes only UTF-8
		e.Detail = strings.ToValidUTF8(e.Detail[:journal.MaxDetailLen], "")
	}
	return e
}

// ConfigChanges says what the configuration installed at path changes from running, old
// and new values (config.Changes), for its journal record.
func ConfigChanges(path string, running *config.Config) string {
	now, err := config.Load(path)
	if err != nil {
		return "the installed file does not load: " + err.Error()
	}
	ch, err := config.Changes(running, now)
	switch {
	case err != nil:
		return "changes not known: " + err.Error()
	case len(ch) == 0:
		return "no setting changed"
	}
	return strings.Join(ch, "; ")
}

// serveMaintenance runs srv on [maintenance] listen until ctx ends; ready gets the
// address listened on (or the error that stopped it first).
func (d *run) serveMaintenance(ctx context.Context, srv *flash.Server, ready chan<- string) error {
	err := maint.Serve(ctx, srv, d.cfg.Maintenance, maint.DefaultBaud, d.log, func(addr string) {
		d.log.Info("posd: maintenance link listening", "addr", addr)
		ready <- addr
	})
	if err != nil {
		d.log.Error("posd: maintenance link stopped", "err", err)
	}
	return err
}

// firmwareStatementVersion is the version of the firmware key statement installed in the
// slot root posboot started posd from (ROOT/firmware-keys.stmt), which the terminal's
// start holds against the newest the journal says was installed (a statement put back
// older, or removed, is refused there). 0: no slot root, no statement, or one that does
// not read (posboot refuses to boot on a damaged one; here it counts as none, which the
// floor refuses once one was installed).
func (d *run) firmwareStatementVersion() uint64 {
	if d.o.Booted == nil || d.o.Booted.Root == "" {
		return 0
	}
	s, err := fwkey.LoadStatement(filepath.Join(d.o.Booted.Root, fwkey.StatementFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0
	case err != nil:
		d.log.Error("posd: firmware key statement does not read: counted as none", "err", err)
		return 0
	}
	return s.Version()
}
