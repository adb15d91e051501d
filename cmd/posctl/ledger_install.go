package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/ledger"
)

func init() {
	ledgerCmd.AddCommand(installCmd("block ledger",
		"Install a block ledger as DIR/block-B.ledger the way a terminal does: it is copied into DIR\n"+
			"first, and the copy must verify against the trusted keys and must not be older than the\n"+
			"installed ledger of its block; only then is it renamed into place, so on any refusal the\n"+
			"installed ledger stays.",
		ledger.Install,
		func(res ledger.Installed) string { return fmt.Sprintf("block %d, version %d", res.Block, res.Version) }))
}

// installCmd builds "install --pub KEY --dir DIR FILE" for a signed file kind that a
// terminal installs failing closed (ledgers, pack status lists).
func installCmd(what, long string, install func(dir, file string, trust *ledger.TrustStore) (ledger.Installed, error), describe func(ledger.Installed) string) *cobra.Command {
	var pubs []string
	var dir string
	cmd := &cobra.Command{
		Use:   "install --pub KEY --dir DIR FILE",
		Short: "Install a " + what + " into a terminal's directory, failing closed",
		Long:  long,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			res, err := install(dir, args[0], trust)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "installed %s: %s%s\n", res.Path, describe(res), previous(res))
			return nil
		},
	}
	addPubFlag(cmd, &pubs, true)
	cmd.Flags().StringVar(&dir, "dir", "", "the terminal's directory")
	cmd.MarkFlagRequired("dir")
	return cmd
}

func previous(res ledger.Installed) string {
	if !res.HadPrevious {
		return " (none before)"
	}
	return fmt.Sprintf(" (was %d)", res.Previous)
}
