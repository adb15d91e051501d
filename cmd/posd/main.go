package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/daemon"
	"github.com/packterm/pos/device/web"
	"github.com/packterm/pos/internal/version"
)

type flags struct {
	config, checkConfig string
	emulate             bool
	data, ledger, pub   string
	packs, script       string
	receipts, display   string
	perTicket           int64
	payLimitSet         bool // --pay-limit was given
	verbose, fresh      bool
	remade              bool // the demo block was made again (format 1 found)
	version             bool
	http, tokenSHA256   string
	maintenance         string
	printFile           string
	logs                *web.LogRing // recent log lines for the web page
	clock               clockFlags
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	stdout, stderr = &lockedWriter{w: stdout}, &lockedWriter{w: stderr}
	var f flags
	fs := flag.NewFlagSet("posd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.config, "config", "", "run on the board described by this configuration file (with --emulate: the terminal it describes, every section honoured or refused, on emulated hardware)")
	fs.StringVar(&f.checkConfig, "check-config", "", "check a configuration file, report every problem, and exit")
	fs.BoolVar(&f.emulate, "emulate", false, "run the whole terminal on emulated hardware (input from stdin or --script)")
	fs.StringVar(&f.data, "data", "", "emulator data directory (default $XDG_CACHE_HOME/posd-emulate, else ./posd-data)")
	fs.StringVar(&f.ledger, "ledger", "", "emulator: ledger file to use instead of the demo block (needs --pub)")
	fs.StringVar(&f.pub, "pub", "", "emulator: operator public key the ledger and status list are checked against")
	fs.StringVar(&f.packs, "packs", "", "emulator: pack status list (default: every pack of the block counts as delivered)")
	fs.StringVar(&f.script, "script", "", "emulator: read input lines from this file; exit 0 when it ends with the terminal idle")
	fs.StringVar(&f.receipts, "receipts", "", "emulator: write each receipt as DIR/NNNN.txt and DIR/NNNN.png")
	fs.StringVar(&f.display, "display", "20x4", "emulator: display size, 16x2 or 20x4")
	fs.Int64Var(&f.perTicket, "pay-limit", 150, "emulator: pay limit per ticket in euros")
	fs.BoolVar(&f.fresh, "fresh", false, "emulator: start a new terminal (empty journal and state; the demo block is kept)")
	fs.BoolVar(&f.verbose, "v", false, "debug logs on stderr")
	fs.StringVar(&f.http, "http", "", "serve the web page on ADDR (board: default [http] listen; emulator: off unless given)")
	fs.StringVar(&f.printFile, "print", "", "emulator: the printer's file of --ledger's block; the web page draws each ticket scanned from it")
	fs.StringVar(&f.tokenSHA256, "token-sha256", "", "emulator: SHA-256 (hex) of the technician token the web page asks for beyond loopback (default: --config's [technician] token_sha256)")
	fs.StringVar(&f.maintenance, "maintenance", "", "emulator: serve the maintenance link (posctl flash, posctl provision) on tcp:HOST:PORT or serial:DEV")
	fs.BoolVar(&f.version, "version", false, "print the version and commit, and exit")
	f.clock.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if f.version {
		fmt.Fprintln(stdout, version.Line("posd"))
		return 0
	}
	fs.Visit(func(fl *flag.Flag) { f.payLimitSet = f.payLimitSet || fl.Name == "pay-limit" })
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "posd: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelDebug
	}
	f.logs = web.NewLogRing(200, slog.LevelInfo)
	log := slog.New(f.logs.Tee(newLineHandler(stderr, level))) // one format on stderr: "posd: …"
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch {
	case f.checkConfig != "":
		return checkConfig(f.checkConfig, stdout, stderr)
	case f.emulate:
		return emulate(ctx, f, stdin, stdout, stderr, log)
	case f.config != "":
		c, err := boardConfig(f.config)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		addr := c.HTTP
		if f.http != "" { // the flag is no part of the file: checked here, as config checks the file's
			addr = f.http
			if err := web.Check(addr, c.Technician.TokenSHA256); err != nil {
				fmt.Fprintf(stderr, "posd: web page on %s: %v\n", addr, err)
				return 2
			}
		}
		var webErr error
		pm := newPosdMetrics()
		started := func(r daemon.Running) {
			pm.sources(r.Journal, r.Fleet)
			if addr != "" {
				wo := boardWeb(r, f.logs, log)
				wo.Metrics = pm.Handler()
				_, webErr = serveWeb(ctx, addr, wo, stderr)
				if webErr != nil {
					log.Error("posd: web page", "err", webErr)
				}
			}
		}
		bo := boardOptions(f.config, log, started)
		bo.Observer = pm
		err = daemon.Run(ctx, c, bo)
		switch {
		case errors.Is(err, daemon.ErrRestart):
			fmt.Fprintf(stderr, "posd: %v: exiting with status %d for the service manager to start it again\n", err, daemon.ExitRestart)
			return daemon.ExitRestart
		case err != nil && !errors.Is(err, context.Canceled):
			fmt.Fprintf(stderr, "posd: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintln(stderr, "posd: one of --config FILE, --check-config FILE or --emulate is required")
	fs.Usage()
	return 2
}

// boardConfig reads and checks the configuration posd --config runs with. posd
// --check-config runs this very function, so that a file it says ok to is never refused at
// boot (every rule is in config's check, which Load runs: daemon.Run checks again).
func boardConfig(path string) (*config.Config, error) {
	c, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

func checkConfig(path string, stdout, stderr io.Writer) int {
	c, err := boardConfig(path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok (terminal %s, board %s, display %s)\n", path, c.TerminalID, c.Board, c.Display)
	return 0
}
