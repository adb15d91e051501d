package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/bundle"
)

func init() {
	cmd := &cobra.Command{
		Use:   "inspect BUNDLE",
		Short: "Print a firmware bundle's manifest and check its payload hashes (no signature check: see fw verify)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return fmt.Errorf("fw inspect: %w", err)
			}
			defer f.Close()
			r, err := bundle.NewUnverifiedReader(bufio.NewReaderSize(f, 1<<16))
			if err != nil {
				return err
			}
			printManifest(cmd, r.Header())
			if err := r.Check(true); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "payload:     every file matches the manifest")
			return nil
		},
	}
	fwCmd.AddCommand(cmd)
}
