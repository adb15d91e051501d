package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() {
	var format, since, pub string
	export := &cobra.Command{
		Use:   "export DIR [--format csv|jsonl] [--since DATE]",
		Short: "Export a journal, one row per record (CSV: ';' separated, euros as 30,00; JSONL: cents)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := parseSince(since)
			if err != nil {
				return err
			}
			if format != "csv" && format != "jsonl" {
				return fmt.Errorf("--format %q: want csv or jsonl", format)
			}
			j, _, err := openJournal(args[0], pub)
			if err != nil {
				return err
			}
			defer j.Close()
			if err := j.Health(); err != nil {
				return err
			}
			if format == "jsonl" {
				return j.WriteJSONL(cmd.OutOrStdout(), t)
			}
			return j.WriteCSV(cmd.OutOrStdout(), t)
		},
	}
	export.Flags().StringVar(&format, "format", "csv", "csv or jsonl")
	export.Flags().StringVar(&since, "since", "", "only records from this date (YYYY-MM-DD, local) or RFC 3339 time")
	export.Flags().StringVar(&pub, "pub", "", "device public key file (default DIR/device.pub)")
	journalCmd.AddCommand(export)
}
