package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/flash"
)

func init() {
	var lf linkFlags
	var files [6]string
	kinds := []flash.Kind{flash.Config, flash.Keys, flash.Ledger, flash.Status}
	cmd := &cobra.Command{
		Use:   "provision --to LINK [--config F] [--keys F] [--ledger F] [--status F]",
		Short: "Install config, operator keys, ledger and pack status list on a terminal over its maintenance link",
		Long: "Send each given file over the maintenance link, in the order config, keys, ledger, status.\n" +
			"The terminal verifies each one (config rules, key format, ledger and status signatures against\n" +
			"its trusted keys) before it replaces the installed one; a refused file leaves it as it was.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := lf.client(cmd)
			if err != nil {
				return err
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
	f.StringVar(&files[flash.Keys], "keys", "", "trusted operator public key file")
	f.StringVar(&files[flash.Ledger], "ledger", "", "signed block ledger")
	f.StringVar(&files[flash.Status], "status", "", "signed pack status list")
	root.AddCommand(cmd)
}
