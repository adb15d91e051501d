package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var pubs []string
	inspect := &cobra.Command{
		Use:   "inspect FILE [--pub KEY]",
		Short: "Print a pack status list and its signature status (exit 1 if --pub is given and it does not verify)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var trust *ledger.TrustStore
			if len(pubs) > 0 {
				var err error
				if trust, err = loadTrust(pubs); err != nil {
					return err
				}
			}
			s, sigErr, err := ledger.InspectStatusFile(args[0], trust)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "retailer:   %d\n", s.Retailer)
			fmt.Fprintf(w, "version:    %d\n", s.Version)
			fmt.Fprintf(w, "issued:     %s\n", time.Unix(s.Issued, 0).UTC().Format(time.RFC3339))
			fmt.Fprintf(w, "signed by:  %v\n", s.KeyID())
			switch {
			case trust == nil:
				fmt.Fprintf(w, "signature:  not checked (no --pub)\n")
			case sigErr != nil:
				fmt.Fprintf(w, "signature:  INVALID: %v\n", sigErr)
			default:
				fmt.Fprintf(w, "signature:  valid\n")
			}
			fmt.Fprintf(w, "ranges:     %d\n", len(s.Ranges))
			for _, r := range s.Ranges {
				fmt.Fprintf(w, "  %-9v block %d, packs %d–%d (%s)\n", r.State, r.Block, r.First, r.First+r.Count-1, game.GroupDigits(int64(r.Count)))
			}
			if trust != nil && sigErr != nil {
				return sigErr
			}
			return nil
		},
	}
	addPubFlag(inspect, &pubs, false)
	statusCmd.AddCommand(inspect)
}
