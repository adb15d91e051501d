package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/ledger"
)

// ledgerCmd is the parent of the ledger commands; each ledger_*.go file adds its own.
var ledgerCmd = &cobra.Command{Use: "ledger", Short: "Block ledgers: generate, verify, inspect, check codes, audit"}

func init() { root.AddCommand(ledgerCmd) }

// addPubFlag adds the --pub flag (a public key file or a directory of *.pub files,
// repeatable) that names the operator keys to trust.
func addPubFlag(cmd *cobra.Command, pubs *[]string, required bool) {
	cmd.Flags().StringSliceVar(pubs, "pub", nil, "trusted operator public key: a key file or a directory of *.pub files (repeatable)")
	if required {
		cmd.MarkFlagRequired("pub")
	}
}

// loadTrust reads the trusted keys; with none it fails, as the terminal does.
func loadTrust(pubs []string) (*ledger.TrustStore, error) {
	t, err := ledger.LoadTrustStore(pubs...)
	if err != nil {
		return nil, err
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("ledger: %v: %w", pubs, ledger.ErrNoTrustedKey)
	}
	return t, nil
}
