package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var pubs []string
	var number uint16
	cmd := &cobra.Command{
		Use:   "audit --pub DIR/operator.pub OUT",
		Short: "Audit a generated block: re-derive every table and check every ticket; exit 1 on any discrepancy",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			dir := args[0]
			if st, err := os.Stat(dir); err != nil {
				return fmt.Errorf("ledger audit: block directory: %w", err)
			} else if !st.IsDir() {
				return fmt.Errorf("ledger audit: %s is not a directory (give the directory ledger gen wrote)", dir)
			}
			if number == 0 {
				found, _ := filepath.Glob(filepath.Join(dir, "block-*.ledger"))
				switch {
				case len(found) == 0:
					return fmt.Errorf("ledger audit: %s holds no block-*.ledger file: nothing to audit", dir)
				case len(found) > 1:
					return fmt.Errorf("ledger audit: %s holds %d ledgers: name one with --block", dir, len(found))
				}
				if _, err := fmt.Sscanf(filepath.Base(found[0]), "block-%d.ledger", &number); err != nil {
					return fmt.Errorf("%s: %w", found[0], err)
				}
			}
			l, err := ledger.ReadFile(filepath.Join(dir, ledger.FileName(number)), trust)
			if err != nil {
				return err
			}
			defer l.Close()
			f, err := block.OpenPrintFile(filepath.Join(dir, block.PrintFileName(number)))
			if err != nil {
				return err
			}
			defer f.Close()
			h := l.Header()
			report, finish := showProgress(cmd.ErrOrStderr(), h.Entries(), "audit")
			rep, err := block.Audit(cmd.Context(), f, l, block.AuditOptions{Progress: report})
			finish()
			if err != nil {
				return err
			}
			if err := rep.Write(cmd.OutOrStdout()); err != nil {
				return err
			}
			if !rep.OK() {
				return &exitError{code: 1, err: fmt.Errorf("audit of block %d: %d discrepancies", number, rep.Problems)}
			}
			return nil
		},
	}
	addPubFlag(cmd, &pubs, true)
	numberVar(cmd.Flags(), &number, "block", blockNumber, "block number (default: the only ledger in OUT)")
	ledgerCmd.AddCommand(cmd)
}
