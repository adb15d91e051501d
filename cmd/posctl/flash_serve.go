package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/maint"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/firmware/slot"
)

// emulatedItems are the provisioning destinations of an emulated terminal of retailer
// under dir, verified as posd verifies them (device/maint): the configuration
// dir/posd.toml (its trust settings must stay those of the one installed there), an
// operator key statement dir/operator-keys.stmt signed by a key in force (the anchors
// operatorKeys until one is installed), ledgers and the pack status list in dir.
func emulatedItems(dir string, retailer uint32, operatorKeys []string) map[flash.Kind]flash.Item {
	return maint.Items(maint.Site{Dir: dir, ConfigPath: filepath.Join(dir, "posd.toml"),
		OperatorKeys: operatorKeys, Retailer: retailer})
}

func init() {
	var listen, dir, target, board, tokenFile string
	var pubs, operatorKeys []string
	var baud int
	var retailer uint32
	cmd := &cobra.Command{
		Use:   "serve --listen tcp:HOST:PORT|serial:DEV --dir DIR --trust firmware.pub --token-file F",
		Short: "Run the terminal's side of the maintenance link on an emulated terminal under DIR",
		Long: "Answer flash and provision as a terminal would: firmware into the A/B slots under DIR/slots\n" +
			"(anti-rollback, trial boot), provisioning files under DIR after the same verification as posd:\n" +
			"ledgers, lists and key statements against --operator-key (the keys it was flashed with) or the\n" +
			"key statement since installed, a configuration only with the trust settings of DIR/posd.toml.\n" +
			"For tests and demos without a board; posd runs the same flash.Server.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" || len(pubs) == 0 || listen == "" {
				return fmt.Errorf("flash serve: --listen, --dir and --trust are required")
			}
			tok, err := readToken(tokenFile)
			if err != nil {
				return err
			}
			trust, err := fwkey.LoadTrustStore(pubs...)
			if err != nil {
				return err
			}
			t, err := parseTarget(target, board)
			if err != nil {
				return err
			}
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			store, err := slot.Open(filepath.Join(dir, "slots"), slot.Options{Target: &t, Trust: trust, Logger: log})
			if err != nil {
				return err
			}
			srv := &flash.Server{TokenHash: sha256.Sum256(tok), SpoolDir: filepath.Join(dir, "spool"), Firmware: store,
				Trust: trust, Items: emulatedItems(dir, retailer, operatorKeys), Logger: log}
			l, err := parseLink(listen, baud)
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			return serveLink(ctx, srv, l, log, func(addr string) {
				fmt.Fprintf(cmd.OutOrStdout(), "emulated terminal (%v) listening on %s:%s\n", t, l.scheme, addr)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", "", "tcp:HOST:PORT or serial:DEV")
	f.IntVar(&baud, "baud", 115200, "serial line rate")
	f.StringVar(&dir, "dir", "", "emulated terminal's storage")
	f.StringSliceVar(&pubs, "trust", nil, "trusted firmware public key(s)")
	f.StringSliceVar(&operatorKeys, "operator-key", nil, "the operator public key(s) the emulated terminal was flashed with (none: it takes no ledger, list or key statement)")
	f.StringVar(&tokenFile, "token-file", "", "technician token file (else $POS_TECH_TOKEN)")
	f.StringVar(&target, "target", "linux-armv7", "the emulated terminal's target")
	f.StringVar(&board, "board", "rpi", "the emulated terminal's board")
	f.Uint32Var(&retailer, "retailer", 1, "the emulated terminal's retailer (posd --emulate is retailer 1; a pack status list for another is refused)")
	flashCmd.AddCommand(cmd)
}

// serveLink runs srv on a TCP listener or a serial device until ctx ends.
func serveLink(ctx context.Context, srv *flash.Server, l linkSpec, log *slog.Logger, ready func(addr string)) error {
	return maint.Serve(ctx, srv, l.scheme+":"+l.addr, l.baud, log, ready)
}
