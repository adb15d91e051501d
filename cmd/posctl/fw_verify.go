package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
)

func init() {
	var pubs []string
	cmd := &cobra.Command{
		Use:   "verify --trust firmware.pub BUNDLE|IMAGE",
		Short: "Verify a firmware bundle as a terminal would (signature by a trusted firmware key, every file's hash), or a sealed disk image",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(pubs) == 0 {
				return fmt.Errorf("fw verify: --trust is required")
			}
			trust, err := fwkey.LoadTrustStore(pubs...)
			if err != nil {
				return err
			}
			f, err := os.Open(args[0])
			if err != nil {
				return fmt.Errorf("fw verify: %w", err)
			}
			defer f.Close()
			if isImage(f) {
				return verifyImage(cmd, f, trust)
			}
			r, err := bundle.NewReader(bufio.NewReaderSize(f, 1<<16), trust)
			if err != nil {
				return err
			}
			if err := r.Check(true); err != nil {
				return err
			}
			m := r.Manifest()
			fmt.Fprintf(cmd.OutOrStdout(), "ok: firmware %v for %v, %d files, signed by firmware key %v\n",
				m.Version, m.Target, len(m.Files), r.Header().KeyID)
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&pubs, "trust", nil, "trusted firmware public key file or directory of *.pub (repeatable)")
	fwCmd.AddCommand(cmd)
}
