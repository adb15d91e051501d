//go:build !production

package main

import (
	"log/slog"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/device/web"
	"github.com/packterm/pos/validate/ledger"
)

// emulatedWeb is the emulated terminal's page.
func emulatedWeb(rig *emulated.Rig, opts emulated.Options, f flags, hosts []string, log *slog.Logger) web.Options {
	p := &web.Parts{TerminalID: rig.Journal.Terminal(), Terminal: rig.Terminal, Journal: rig.Journal, Ledgers: rig.Ledgers,
		AllDelivered: opts.AllDelivered, Printer: rig.Driver, PrinterMode: "default (emulated)", Board: rig.Board, Logs: f.logs}
	if st, ok := opts.Status.(*ledger.StatusList); ok {
		p.StatusList = st
	}
	return web.Options{Parts: p, Emulator: rig, PrintFile: f.printFile, TokenSHA256: f.tokenSHA256, Hosts: hosts, Logger: log, Language: rig.Config.Language}
}
