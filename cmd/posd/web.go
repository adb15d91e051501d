package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/packterm/pos/device/daemon"
	"github.com/packterm/pos/device/web"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/validate/ledger"
)

// serveWeb starts the web page on addr in the background; it stops with ctx.
func serveWeb(ctx context.Context, addr string, o web.Options, stderr io.Writer) (*web.Server, error) {
	s, ln, err := web.Listen(addr, o)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "posd: web page on http://%s/\n", ln.Addr())
	go func() {
		if err := s.Serve(ctx, ln); err != nil {
			o.Logger.Error("posd: web page stopped", "err", err)
		}
	}()
	return s, nil
}

// boardWeb is the status page of a running daemon.
func boardWeb(r daemon.Running, logs *web.LogRing, log *slog.Logger) web.Options {
	p := &web.Parts{TerminalID: r.Config.TerminalID, Terminal: r.Terminal, Journal: r.Journal,
		PrinterMode: r.Config.Printer.Profile, Board: r.Board, Logs: logs}
	if r.Printer != nil { // a nil *Printer in the interface would not read as absent
		p.Printer = r.Printer
	}
	if r.Booted != nil {
		p.Slot = bootedSlot{r.Booted}
	}
	if r.Data != nil {
		p.Ledgers, p.DataRefused, p.Missing = r.Data.Ledgers, r.Data.Refused, r.Data.Missing
		if st, ok := r.Data.Status.(*ledger.StatusList); ok {
			p.StatusList = st
		}
	}
	return web.Options{Parts: p, TokenSHA256: r.Config.Technician.TokenSHA256, Hosts: r.Config.HTTPHosts, Logger: log, Language: r.Config.Language}
}

// bootedSlot is the slot posboot started posd from, for the status page.
type bootedSlot struct{ b *slot.Booted }

func (s bootedSlot) Slot() (string, error) {
	out := fmt.Sprintf("%s, firmware %s", s.b.Slot, s.b.Version)
	if s.b.Trial {
		out += " (on trial: committed once healthy)"
	}
	return out, nil
}
