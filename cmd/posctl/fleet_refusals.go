package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/internal/money"
	"github.com/packterm/pos/validate/codes"
)

func init() {
	var fc fleetConn
	var asJSON bool
	var terminal string
	c := &cobra.Command{
		Use:   "refusals --data DIR [--url URL] [--terminal ID] [--json]",
		Short: "List the claims the claim service refused (wrong code, loser, amount, not delivered, unknown block, rate limited, journal unverified) and the records its witness refused",
		Long: "Read the REFUSALS stream: every claim the claim service refused, with its terminal, retailer,\n" +
			"ticket, reason and detail (never a validation code). A flood over a terminal's rate limit is one\n" +
			"record per 10 s with the count of refusals it stands for. The witness's findings (a record unsigned,\n" +
			"not signed by the terminal's device key, or re-chained) name the record instead of a ticket.\n" +
			"--json prints one JSON object per line.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, stop := interruptible(c.Context())
			defer stop()
			nc, js, _, err := fc.open(ctx)
			if err != nil {
				return err
			}
			defer nc.Close()
			var rs []fleet.Refusal
			bad, err := server.ReadRefusals(ctx, js, func(r fleet.Refusal) error {
				if terminal == "" || r.Terminal == terminal {
					rs = append(rs, r)
				}
				return nil
			})
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				for _, r := range rs {
					if err := enc.Encode(r); err != nil {
						return err
					}
				}
				return nil
			}
			fmt.Fprintf(out, "refused claims: %d\n", len(rs))
			w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "at\tterminal\tretailer\tticket\treason\tasked\tledger\tdetail")
			for _, r := range rs {
				reason := r.Reason
				if r.Count > 1 {
					reason = fmt.Sprintf("%s ×%d", r.Reason, r.Count)
				}
				ticket := r.Ticket.String()
				if r.Ticket == (codes.TicketID{}) && r.Record != "" { // the witness's: a record, no ticket
					ticket = "record " + r.Record
				}
				fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", r.At.UTC().Format(time.RFC3339), r.Terminal, r.Retailer,
					ticket, reason, euros(r.Amount), euros(r.Lot), r.Detail)
			}
			w.Flush()
			for _, b := range bad {
				fmt.Fprintf(out, "refused message %d on %s: %v\n", b.Seq, b.Subject, b.Err)
			}
			return nil
		},
	}
	fc.flags(c)
	c.Flags().BoolVar(&asJSON, "json", false, "one JSON object per refused claim")
	c.Flags().StringVar(&terminal, "terminal", "", "only this terminal's")
	fleetCmd.AddCommand(c)
}

// euros formats cents as "12,34" (money.Plain, the form amounts are read back in).
func euros(c int64) string { return money.Plain(c) }
