package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/validate/ledger"
)

// limitsCmd is the parent of the operator limits statement commands.
var limitsCmd = &cobra.Command{Use: "limits", Short: "Operator limits statements: a terminal's money limits, signed by the operator"}

func init() {
	var (
		key, out, terminal                 string
		retailer                           uint32
		version                            uint64
		perTicket, perDay, offline, offTot string
	)
	gen := &cobra.Command{
		Use: "gen --key DIR/operator.key (--terminal ID | --retailer N) --version V --pay-per-ticket E --pay-per-day E " +
			"--offline-per-ticket E --offline-total E --out FILE",
		Short: "Write a signed operator limits statement for one terminal or every terminal of a retailer",
		Long: "Write a signed, versioned statement of the four money limits (euros, as in [limits]) for one\n" +
			"terminal or every terminal of a retailer. A terminal takes it over its maintenance link\n" +
			"(posctl provision --limits FILE) when an operator key it trusts signed it and its version is above\n" +
			"the installed one's; its limits are then in force over the configuration's. Format: docs/ledger.md.",
		Example: "  posctl limits gen --key keys/operator.key --terminal T-0042 --version 3 --pay-per-ticket 30 \\\n" +
			"      --pay-per-day 500 --offline-per-ticket 20 --offline-total 200 --out limits.stmt",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (terminal == "") == (retailer == 0) {
				return errors.New("limits gen: give exactly one of --terminal and --retailer")
			}
			s := ledger.LimitsStatement{Version: version, Terminal: terminal, Retailer: retailer}
			for _, x := range []struct {
				flag, v string
				to      *int64
			}{{"pay-per-ticket", perTicket, &s.Limits.PerTicket}, {"pay-per-day", perDay, &s.Limits.PerDay},
				{"offline-per-ticket", offline, &s.Limits.OfflinePerTicket}, {"offline-total", offTot, &s.Limits.OfflineTotal}} {
				c, err := config.ParseEuros(x.v)
				if err != nil {
					return fmt.Errorf("limits gen: --%s %q: %w", x.flag, x.v, err)
				}
				*x.to = c
			}
			priv, err := ledger.LoadPrivateKey(key) // after the flags: a typo costs no key access
			if err != nil {
				return err
			}
			text, err := ledger.SignLimitsStatement(s, priv)
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFile(out, text, 0o644); err != nil {
				return fmt.Errorf("limits gen: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: limits for %s, version %d: %s € a ticket, %s € a day, offline %s € a ticket and %s € in all, signed by key %v\n",
				out, s.Scope(), version, config.FormatEuros(s.Limits.PerTicket), config.FormatEuros(s.Limits.PerDay),
				config.FormatEuros(s.Limits.OfflinePerTicket), config.FormatEuros(s.Limits.OfflineTotal), ledger.IDOf(priv.Public().(ed25519.PublicKey)))
			return nil
		},
	}
	f := gen.Flags()
	f.StringVar(&key, "key", "", "operator private key file")
	f.StringVar(&out, "out", "", "statement file to write")
	f.StringVar(&terminal, "terminal", "", "the one terminal the statement is for")
	f.Uint32Var(&retailer, "retailer", 0, "the retailer whose every terminal the statement is for")
	f.Uint64Var(&version, "version", 0, "statement version (terminals refuse a version not above theirs)")
	f.StringVar(&perTicket, "pay-per-ticket", "", "most paid for one ticket, euros")
	f.StringVar(&perDay, "pay-per-day", "", "most paid in a day, euros")
	f.StringVar(&offline, "offline-per-ticket", "", "most paid for one ticket while the fleet is unreachable, euros")
	f.StringVar(&offTot, "offline-total", "", "most paid unconfirmed offline in all, euros")
	for _, name := range []string{"key", "out", "version", "pay-per-ticket", "pay-per-day", "offline-per-ticket", "offline-total"} {
		gen.MarkFlagRequired(name)
	}
	limitsCmd.AddCommand(gen)
	root.AddCommand(limitsCmd)
}
