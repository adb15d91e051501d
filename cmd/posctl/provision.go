package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/maint"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var lf linkFlags
	var files [6]string
	var limits string
	kinds := []flash.Kind{flash.Config, flash.Keys, flash.Ledger, flash.Status}
	cmd := &cobra.Command{
		Use:   "provision --to LINK [--config F] [--keys F] [--limits F] [--ledger F] [--status F]",
		Short: "Install config, a key statement, a limits statement, ledger and pack status list on a terminal over its maintenance link",
		Long: "Send each given file over the maintenance link, in the order config, keys, limits, ledger, status.\n" +
			"The terminal verifies each one (config rules and unchanged trust and operator settings, a key or\n" +
			"limits statement signed by a key it trusts now, ledger and status signatures against its trusted\n" +
			"keys) before it replaces the installed one; a refused file leaves it as it was. --keys takes a\n" +
			"statement from posctl keys rotate, never a bare key file: the technician token does not change what\n" +
			"is trusted. --limits takes a statement from posctl limits gen (sent as the keys item).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := lf.client(cmd)
			if err != nil {
				return err
			}
			for _, p := range []string{files[flash.Keys], limits} {
				if p != "" {
					if err := checkStatement(p); err != nil {
						return err
					}
				}
			}
			sent := 0
			for _, k := range kinds {
				paths := []string{files[k]}
				if k == flash.Keys {
					paths = append(paths, limits) // every operator-signed statement is a keys item
				}
				for _, p := range paths {
					if p == "" {
						continue
					}
					if err := sendFile(cmd, c, k, p); err != nil {
						return err
					}
					sent++
				}
			}
			if sent == 0 {
				return fmt.Errorf("provision: nothing to send: give --config, --keys, --limits, --ledger or --status")
			}
			return nil
		},
	}
	lf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&files[flash.Config], "config", "", "terminal configuration (posd.toml)")
	f.StringVar(&files[flash.Keys], "keys", "", "key statement (posctl keys rotate): the new set of operator or firmware keys, signed by a trusted key")
	f.StringVar(&limits, "limits", "", "operator limits statement (posctl limits gen): the money limits, signed by a trusted key")
	f.StringVar(&files[flash.Ledger], "ledger", "", "signed block ledger")
	f.StringVar(&files[flash.Status], "status", "", "signed pack status list")
	root.AddCommand(cmd)
}

// checkStatement refuses a bare key file given as --keys or --limits before anything is
// sent (the terminal refuses it too).
func checkStatement(path string) error {
	text, err := regularfile.ReadFile(path, maint.MaxKeysSize)
	if err != nil {
		return fmt.Errorf("provision --keys: %w", err)
	}
	switch first, _, _ := strings.Cut(string(text[:min(len(text), 64)]), " "); first {
	case ledger.KeyStatementType, ledger.LimitsStatementType, fwkey.StatementType:
		return nil
	case ledger.PublicKeyType, ledger.PrivateKeyType, fwkey.PublicType, fwkey.PrivateType:
		return fmt.Errorf("provision --keys %s: %w", path, maint.ErrBareKey)
	}
	return fmt.Errorf("provision --keys %s: %w", path, maint.ErrNotStatement)
}
