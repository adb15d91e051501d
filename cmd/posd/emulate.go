//go:build !production

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/web"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/internal/progress"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// demoBlock is the number of the emulator's demo block.
const demoBlock = 1

func dataDir(f flags) string {
	if f.data != "" {
		return f.data
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "posd-emulate")
	}
	return "posd-data"
}

// emulate runs the terminal on emulated hardware until the input ends. With --config, the
// terminal is the one the file describes, every section honoured as on a board (its
// identity, [limits], [display], [board], [scanner], [printer], [technician], [fleet],
// [http] and [maintenance]) or refused (emulatedConfig); without, it is the demo
// terminal (config.Emulated, --pay-limit), alone: no fleet, no offline limit.
func emulate(ctx context.Context, f flags, stdin io.Reader, stdout, stderr io.Writer, log *slog.Logger) int {
	fail := func(err error) int { fmt.Fprintf(stderr, "posd: %v\n", err); return 1 }
	cfg := config.Emulated()
	cfg.Scanner.AIM = true // the demo terminal's scanner sends AIM identifiers
	if f.config != "" && f.payLimitSet {
		fmt.Fprintln(stderr, "posd: --pay-limit and --config: the limits come from the configuration file ([limits] pay_per_ticket)")
		return 2
	}
	if f.config != "" {
		c, err := emulatedConfig(f)
		if err != nil {
			return fail(err)
		}
		cfg = *c
		f.display = cfg.Display.String()
		if f.data == "" && cfg.DataDir != config.Default().DataDir {
			f.data = cfg.DataDir // [terminal] data_dir, when set, is the emulator's data directory
		}
		if f.http == "" {
			f.http = cfg.HTTP
		}
		if f.maintenance == "" {
			f.maintenance = cfg.Maintenance
		}
	} else {
		if err := checkPayLimit(f.perTicket, cfg.Limits.PerDay); err != nil {
			fmt.Fprintf(stderr, "posd: %v\n", err)
			return 2
		}
		cfg.Limits.PerTicket = f.perTicket * 100
	}
	dir := dataDir(f)
	if f.tokenSHA256 == "" {
		f.tokenSHA256 = cfg.Technician.TokenSHA256
	}
	clock, step, err := f.clock.clock()
	if err != nil {
		return fail(err)
	}
	// Every flag is checked before anything long (the first run's demo block) is done.
	geo, err := board.ParseGeometry(f.display)
	if err != nil {
		fmt.Fprintf(stderr, "posd: --display %s: want 16x2 or 20x4\n", f.display)
		return 2
	}
	for _, file := range []struct{ flag, path string }{{"--script", f.script}, {"--packs", f.packs}} {
		if file.path == "" {
			continue
		}
		if _, err := os.Stat(file.path); err != nil {
			fmt.Fprintf(stderr, "posd: %s: %v\n", file.flag, err)
			return 2
		}
	}
	if f.http != "" {
		if err := web.Check(f.http, f.tokenSHA256); err != nil {
			return fail(err)
		}
	}
	if f.fresh {
		if err := os.RemoveAll(filepath.Join(dir, "terminal")); err != nil {
			return fail(err)
		}
	}
	out := &printerOut{w: stdout}
	startFail := func(err error) int { // on the emulated panel too, as a board's says it
		out.startFault(f.display, err)
		return fail(err)
	}
	l, trust, aliases, err := openBlock(ctx, f, dir, cfg, out, stderr)
	if err != nil {
		return startFail(err)
	}
	defer l.Close()
	cfg.Display = config.Display{Cols: geo.Cols, Rows: geo.Rows}
	opts := emulated.Options{Dir: filepath.Join(dir, "terminal"), Config: &cfg, Alone: f.config == "", Ledgers: []*ledger.Ledger{l},
		Logger: log, ReceiptsDir: f.receipts, OnScreen: out.screen, OnReceipt: out.receipt, Aliases: aliases, Clock: clock, Step: step}
	if f.packs != "" {
		st, err := ledger.LoadStatus(f.packs, trust)
		if err != nil {
			return fail(err)
		}
		opts.Status = st
	} else {
		opts.AllDelivered = true
	}
	pm := newPosdMetrics()
	opts.Observer = pm
	rig, err := emulated.Start(ctx, opts)
	if err != nil {
		return startFail(err)
	}
	defer rig.Close()
	pm.sources(rig.Journal, nil)
	var page *web.Server
	if f.http != "" {
		wo := emulatedWeb(rig, opts, f, cfg.HTTPHosts, log)
		wo.Metrics = pm.Handler()
		if page, err = serveWeb(ctx, f.http, wo, stderr); err != nil {
			return fail(err)
		}
	}
	if f.maintenance != "" {
		mctx, stopLink := context.WithCancel(ctx)
		wait, err := emulatedMaintenance(mctx, f, dir, cfg, rig.Journal, log, stderr)
		if wait != nil {
			defer func() { stopLink(); wait() }()
		} else {
			stopLink()
		}
		if err != nil {
			return fail(err)
		}
	}
	in := stdin
	if f.script != "" {
		fh, err := os.Open(f.script)
		if err != nil {
			return fail(err)
		}
		defer fh.Close()
		in = fh
	} else {
		fmt.Fprintln(stderr, "posd: type codes or !ok, !cancel, !paper-out, !paper-in, !cover-open, !cover-close, !tamper, !unlock, !report, !reprint, !photo FILE.png; Ctrl-D ends")
	}
	failed := 0
	echo, onFail := out.input, func(err error) { failed++; fmt.Fprintf(stderr, "posd: %v\n", err) }
	if page != nil { // each line also shows on the page as its last input
		echo, onFail = page.Stdin(echo, onFail)
	}
	err = rig.Feed(ctx, in, echo, onFail)
	if err != nil {
		return fail(err)
	}
	if f.script != "" && failed > 0 && ctx.Err() == nil {
		fmt.Fprintf(stderr, "posd: %d line(s) of the script failed\n", failed)
		return 2
	}
	if f.http != "" && f.script == "" { // the page goes on after the input ends, until a signal
		<-ctx.Done()
		return 0
	}
	if f.script != "" && ctx.Err() == nil {
		// Bounded as each line is: a terminal that never comes to rest fails the script.
		sctx, cancel := context.WithTimeout(ctx, emulated.SettleTimeout)
		quiet, err := rig.Terminal.Settle(sctx, rig.Terminal.Received()-1)
		cancel()
		if err != nil || !quiet {
			fmt.Fprintf(stderr, "posd: script ended with the terminal in state %s, not idle\n", rig.Terminal.StateName())
			return 3
		}
	}
	return 0
}

// emulatedConfig reads --config for the emulator: checked as config checks it, then
// refused where the emulator cannot honour it (emulated.CheckConfig), or where its
// [terminal] data_dir and --data disagree.
func emulatedConfig(f flags) (*config.Config, error) {
	c, err := config.Load(f.config)
	if err != nil {
		return nil, err
	}
	if err := emulated.CheckConfig(c); err != nil {
		return nil, fmt.Errorf("%s: %w", f.config, err)
	}
	if f.data != "" && c.DataDir != config.Default().DataDir && filepath.Clean(c.DataDir) != filepath.Clean(f.data) {
		return nil, fmt.Errorf("%s: [terminal] data_dir = %q and --data %q: give one", f.config, c.DataDir, f.data)
	}
	return c, nil
}

// checkPayLimit accepts --pay-limit EUROS from 1 € to the emulator's limit per day (the
// day's payouts could not reach a larger one).
func checkPayLimit(euros, perDay int64) error {
	if euros < 1 || euros > perDay/100 {
		return fmt.Errorf("--pay-limit %d: want whole euros from 1 to %d (the emulator's limit per day, %s)",
			euros, perDay/100, retail.Plain(retail.Money(perDay)))
	}
	return nil
}

// openBlock opens the ledger to run with: --ledger, checked against --pub (else --config's
// [keys] operator), or the demo block of the data directory, made on the first run (its
// codes to try are printed), checked against its own demo key.
func openBlock(ctx context.Context, f flags, dir string, cfg config.Config, out *printerOut, stderr io.Writer) (*ledger.Ledger, *ledger.TrustStore, map[string]string, error) {
	limit := cfg.Limits.PerTicket
	ledgerPath, pubPath := f.ledger, f.pub
	var aliases map[string]string
	if ledgerPath == "" {
		start := time.Now()
		report, finish := demoProgress(stderr)
		demo, made, err := emulated.OpenOrMakeDemo(ctx, filepath.Join(dir, "demo"), game.Reglement(), demoBlock, limit, report)
		finish()
		if err != nil {
			return nil, nil, nil, err
		}
		if made {
			fmt.Fprintf(stderr, "posd: demo block %d made in %s (%s): operator key and ledger, no printer's file\n",
				demoBlock, filepath.Join(dir, "demo"), time.Since(start).Round(time.Millisecond))
		}
		ledgerPath, pubPath, aliases = demo.Ledger, demo.Pub, demo.Aliases()
		out.codes(demo)
	}
	anchors := []string{pubPath}
	if pubPath == "" {
		if len(cfg.Keys.Operator) == 0 {
			return nil, nil, nil, fmt.Errorf("--ledger needs --pub (the operator's public key), or --config with [keys] operator")
		}
		anchors = cfg.Keys.Operator
	}
	trust, err := ledger.LoadTrustStore(anchors...)
	if err != nil {
		return nil, nil, nil, err
	}
	l, err := ledger.OpenFile(ledgerPath, trust)
	if errors.Is(err, ledger.ErrFormat1) && f.ledger == "" && !f.remade {
		// The emulator's own demo block, made before format 2: make it again.
		fmt.Fprintln(stderr, "posd: the demo block is in ledger format 1, which is refused now: making a new one")
		if err := os.RemoveAll(filepath.Join(dir, "demo")); err != nil {
			return nil, nil, nil, err
		}
		f.remade = true
		return openBlock(ctx, f, dir, cfg, out, stderr)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return l, trust, aliases, nil
}

// printerOut prints the emulator's screens, receipts and inputs on one writer.
type printerOut struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *printerOut) input(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.TrimSpace(line) != "" {
		fmt.Fprintf(p.w, "> %s\n", line)
	}
}

func (p *printerOut) screen(lines []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := 0
	for _, l := range lines {
		w = max(w, len([]rune(l)))
	}
	bar := "+" + strings.Repeat("-", w) + "+"
	fmt.Fprintln(p.w, bar)
	for _, l := range lines {
		fmt.Fprintf(p.w, "|%s%s|\n", l, strings.Repeat(" ", w-len([]rune(l))))
	}
	fmt.Fprintln(p.w, bar)
}

// startFault prints the screen a panel of size display shows when the terminal cannot
// start for err (retail.StartFaultScreen).
func (p *printerOut) startFault(display string, err error) {
	g, gerr := board.ParseGeometry(display)
	if gerr != nil {
		g, _ = board.ParseGeometry("20x4")
	}
	p.screen(retail.MustLayout(retail.StartFaultScreen(retail.StartFaultOf(err)), g.Cols, g.Rows))
}

func (p *printerOut) receipt(n int, r printeremul.Receipt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "==== receipt %04d ====\n%s==== end of receipt %04d ====\n", n, r.PlainText(), n)
}

func (p *printerOut) codes(d *emulated.Demo) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, "codes to try (paste one per line, or its @name):")
	for _, c := range d.Codes {
		amount := ""
		if c.Amount > 0 {
			amount = " " + retail.Plain(retail.Money(c.Amount))
		}
		fmt.Fprintf(p.w, "  %-25s  %-13s %s%s\n", c.Code, "@"+c.Alias(), c.What, amount)
	}
}

// demoProgress reports the demo block's generation on w (internal/progress): one line
// redrawn in place when w is a terminal, a line every 5 s otherwise. finish ends it (it
// does nothing when no block was made).
func demoProgress(w io.Writer) (report func(done, total int), finish func()) {
	var mu sync.Mutex
	var set func(int)
	var end func()
	report = func(done, total int) { // total is known at the first report
		mu.Lock()
		defer mu.Unlock()
		if set == nil {
			set, end = progress.New(w, total, "posd: making the demo block", progress.Options{Unit: "tickets"})
		}
		set(done)
	}
	return report, func() {
		mu.Lock()
		defer mu.Unlock()
		if end != nil {
			end()
		}
	}
}
