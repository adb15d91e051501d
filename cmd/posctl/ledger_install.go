package main

import (
	"fmt"

	"github.com/packterm/pos/validate/ledger"
	"github.com/spf13/cobra"
)

func init() {
	var pubs []string
	var dir string
	install := &cobra.Command{
		Use:   "install --pub KEY --dir DIR FILE",
		Short: "Install a block ledger into a terminal's directory, failing closed",
		Long: "Install a block ledger as DIR/block-B.ledger the way a terminal does: the file must verify\n" +
			"against the trusted keys and must not be older than the installed ledger of its block; it is\n" +
			"copied, verified again and renamed into place, so on any refusal the installed ledger stays.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			res, err := ledger.Install(dir, args[0], trust)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "installed %s: block %d, version %d%s\n", res.Path, res.Block, res.Version, previous(res))
			return nil
		},
	}
	addPubFlag(install, &pubs, true)
	install.Flags().StringVar(&dir, "dir", "", "the terminal's ledger directory")
	install.MarkFlagRequired("dir")
	ledgerCmd.AddCommand(install)
}

func previous(res ledger.Installed) string {
	if !res.HadPrevious {
		return " (none before)"
	}
	return fmt.Sprintf(" (was %d)", res.Previous)
}
