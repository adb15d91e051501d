package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/firmware/fwkey"
)

// genFirmwareKey is `keys gen --firmware`.
func genFirmwareKey(cmd *cobra.Command, out string) error {
	id, err := fwkey.GenerateFiles(out)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "private key: %s (keep it secret)\n", filepath.Join(out, fwkey.PrivateFile))
	fmt.Fprintf(w, "public key:  %s\n", filepath.Join(out, fwkey.PublicFile))
	fmt.Fprintf(w, "key id:      %v\n", id)
	return nil
}
