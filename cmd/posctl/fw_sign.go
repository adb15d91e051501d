package main

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
)

func init() {
	var key, out string
	cmd := &cobra.Command{
		Use:   "sign --key firmware.key --out SIGNED BUNDLE",
		Short: "Sign a firmware bundle with the firmware key (checking its payload on the way)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" || out == "" {
				return fmt.Errorf("fw sign: --key and --out are required")
			}
			priv, err := fwkey.LoadPrivate(key)
			if err != nil {
				return err
			}
			in, err := os.Open(args[0])
			if err != nil {
				return fmt.Errorf("fw sign: %w", err)
			}
			defer in.Close()
			if err := writeFileAtomic(out, func(f io.Writer) error { return bundle.Sign(f, in, priv) }); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: signed by firmware key %v\n", out, fwkey.IDOf(priv.Public().(ed25519.PublicKey)))
			return nil
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "firmware private key file (firmware.key)")
	cmd.Flags().StringVar(&out, "out", "", "signed bundle to write")
	fwCmd.AddCommand(cmd)
}
