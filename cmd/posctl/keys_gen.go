package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var out string
	var firmware bool
	gen := &cobra.Command{
		Use:   "gen --out DIR [--firmware]",
		Short: "Generate the operator's Ed25519 key pair (or with --firmware the firmware signing pair)",
		Long: "Generate the operator's Ed25519 ledger signing key pair. DIR/operator.key is the private key\n" +
			"(mode 0600, keep it offline); DIR/operator.pub is the public key terminals pin. Existing files\n" +
			"are never overwritten. Key file format: docs/ledger.md.\n" +
			"With --firmware: DIR/firmware.key and DIR/firmware.pub, the key that signs firmware bundles\n" +
			"(docs/firmware.md); its files are typed so neither key can stand in for the other.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return fmt.Errorf("keys gen: --out DIR is required")
			}
			if firmware {
				return genFirmwareKey(cmd, out)
			}
			id, err := ledger.GenerateKey(out)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "private key: %s (keep it secret)\n", filepath.Join(out, ledger.OperatorPrivateFile))
			fmt.Fprintf(w, "public key:  %s\n", filepath.Join(out, ledger.OperatorPublicFile))
			fmt.Fprintf(w, "key id:      %v\n", id)
			return nil
		},
	}
	gen.Flags().BoolVar(&firmware, "firmware", false, "generate the firmware bundle signing key (firmware.key, firmware.pub)")
	gen.Flags().StringVar(&out, "out", "", "directory for operator.key and operator.pub (created if missing)")
	keysCmd.AddCommand(gen)
}
