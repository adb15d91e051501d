package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() {
	var pub string
	verify := &cobra.Command{
		Use:   "verify DIR [--pub device.pub]",
		Short: "Verify a journal whole: chain, checkpoints, indexes, day totals (exit 1 naming the first bad record)",
		Long: "Verify a terminal's journal whole, read-only: every record (encoding, hash, sequence\n" +
			"without gap, chain), every checkpoint (signature with the device key, the record it\n" +
			"covers, its day's totals), the paid and sold indexes against the records, the day totals.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			j, err := openJournal(args[0], pub)
			if err != nil {
				return err
			}
			defer j.Close()
			if err := j.Health(); err != nil {
				return err
			}
			rep, err := j.Verify()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if t := j.Snapshot(); !t.IsZero() {
				fmt.Fprintf(w, "note: the journal is in use: verified a copy taken at %s\n", t.Format("2006-01-02 15:04:05"))
			}
			if r := j.Repaired(); r != "" {
				fmt.Fprintf(w, "note: %s\n", r)
			}
			fmt.Fprintf(w, "ok: terminal %s, %v\n", j.Terminal(), rep)
			return nil
		},
	}
	verify.Flags().StringVar(&pub, "pub", "", "device public key file (default DIR/device.pub)")
	journalCmd.AddCommand(verify)
}
