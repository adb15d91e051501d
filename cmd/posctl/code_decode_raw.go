package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/drivers/scanner"
)

// withRawFlag adds --raw to posctl code decode: print the symbology and the raw text of every
// symbol in the image, whatever it holds (as zbarimg --raw does), so that a technician can
// test a camera with any barcode. Without --raw the command runs as before.
func withRawFlag(cmd *cobra.Command) *cobra.Command {
	var raw bool
	cmd.Flags().BoolVar(&raw, "raw", false, "print \"SYMBOLOGY AIM TEXT\" for every symbol found, whatever it holds")
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if !raw {
			return run(c, args)
		}
		return codeDecodeRaw(c, args[0])
	}
	return cmd
}

// codeDecodeRaw reads every symbol of every supported symbology in file (ITF of any even
// length) and prints one line per symbol: format name, AIM identifier, text.
func codeDecodeRaw(cmd *cobra.Command, file string) error {
	fr, err := scanner.LoadFrame(file)
	if err != nil {
		return fmt.Errorf("code decode: %w", err)
	}
	all, err := barcode.NewDecoder(barcode.Options{Formats: barcode.AllFormats}).DecodeAll(fr.Image)
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("code decode: %s: %w", file, err)}
	}
	for _, r := range all {
		fmt.Fprintf(cmd.OutOrStdout(), "%s %s %s\n", r.Format, r.Symbology, r.Text)
	}
	return nil
}
