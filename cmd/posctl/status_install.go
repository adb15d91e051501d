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
		Short: "Install a pack status list into a terminal's directory, failing closed",
		Long: "Install a pack status list as DIR/pack-status.list: it must verify against the trusted keys, be\n" +
			"for the retailer of the installed list and not be older than it; on any refusal the installed\n" +
			"list stays.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			res, err := ledger.InstallStatus(dir, args[0], trust)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "installed %s: version %d%s\n", res.Path, res.Version, previous(res))
			return nil
		},
	}
	addPubFlag(install, &pubs, true)
	install.Flags().StringVar(&dir, "dir", "", "the terminal's directory")
	install.MarkFlagRequired("dir")
	statusCmd.AddCommand(install)
}
