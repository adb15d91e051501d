package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var pubs []string
	verify := &cobra.Command{
		Use:   "verify --pub KEY FILE",
		Short: "Verify a block ledger as a terminal would (exit 0, or exit 1 with the reason)",
		Long: "Verify a block ledger as a terminal would before answering anything: format, operator\n" +
			"signature against the trusted keys, hash tree and every chunk of entries. The file is read\n" +
			"with plain reads and hashed as it streams (never mapped).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			in, err := ledger.VerifyFile(args[0], trust)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "ok: block %d, ledger version %d, %s packs, %s tickets, signed by key %v\n",
				in.Block, in.Version, game.GroupDigits(int64(in.Packs)), game.GroupDigits(int64(in.Entries())), in.KeyID)
			return nil
		},
	}
	addPubFlag(verify, &pubs, true)
	ledgerCmd.AddCommand(verify)
}
