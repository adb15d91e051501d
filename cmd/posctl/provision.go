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
	kinds := []flash.Kind{flash.Config, flash.Keys, flash.Ledger, flash.Status}
	cmd := &cobra.Command{
		Use:   "provision --to LINK [--config F] [--keys F] [--ledger F] [--status F]",
		Short: "Install config, a key statement, ledger and pack status list on a terminal over its maintenance link",
		Long: "Send each given file over the maintenance link, in the order config, keys, ledger, status.\n" +
			"The terminal verifies each one (config rules and unchanged trust settings, a key statement signed\n" +
			"by a key it trusts now, ledger and status signatures against its trusted keys) before it replaces\n" +
			"the installed one; a refused file leaves it as it was. --keys takes a statement from\n" +
			"posctl keys rotate, never a bare key file: the technician token does not change what is trusted.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := lf.client(cmd)
			if err != nil {
				return err
			}
			if files[flash.Keys] != "" {
				if err := checkStatement(files[flash.Keys]); err != nil {
					return err
				}
			}
			sent := 0
			for _, k := range kinds {
				if files[k] == "" {
					continue
				}
				if err := sendFile(cmd, c, k, files[k]); err != nil {
					return err
				}
				sent++
			}
			if sent == 0 {
				return fmt.Errorf("provision: nothing to send: give --config, --keys, --ledger or --status")
			}
			return nil
		},
	}
	lf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&files[flash.Config], "config", "", "terminal configuration (posd.toml)")
	f.StringVar(&files[flash.Keys], "keys", "", "key statement (posctl keys rotate): the new set of operator or firmware keys, signed by a trusted key")
	f.StringVar(&files[flash.Ledger], "ledger", "", "signed block ledger")
	f.StringVar(&files[flash.Status], "status", "", "signed pack status list")
	root.AddCommand(cmd)
}

// checkStatement refuses a bare key file given as --keys before anything is sent (the
// terminal refuses it too).
func checkStatement(path string) error {
	text, err := regularfile.ReadFile(path, maint.MaxKeysSize)
	if err != nil {
		return fmt.Errorf("provision --keys: %w", err)
	}
	switch first, _, _ := strings.Cut(string(text[:min(len(text), 64)]), " "); first {
	case ledger.KeyStatementType, fwkey.StatementType:
		return nil
	case ledger.PublicKeyType, ledger.PrivateKeyType, fwkey.PublicType, fwkey.PrivateType:
		return fmt.Errorf("provision --keys %s: %w", path, maint.ErrBareKey)
	}
	return fmt.Errorf("provision --keys %s: %w", path, maint.ErrNotStatement)
}
