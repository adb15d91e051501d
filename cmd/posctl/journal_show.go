package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/journal"
)

func init() {
	var ticket, pub string
	var last int
	show := &cobra.Command{
		Use:   "show DIR [--ticket BLOCK/PACK/POS] [--last N]",
		Short: "Show a journal's head and last records, or what it holds about one ticket or pack",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			j, _, err := openJournal(args[0], pub)
			if err != nil {
				return err
			}
			defer j.Close()
			w := cmd.OutOrStdout()
			seq, hash := j.Head()
			fmt.Fprintf(w, "terminal %s, %d records, head %x\n", j.Terminal(), seq, hash[:8])
			if err := j.Health(); err != nil {
				fmt.Fprintf(w, "NOT HEALTHY (no payouts): %v\n", err)
			}
			if ticket != "" {
				return showTicket(cmd, j, ticket)
			}
			rs, err := j.Tail(last)
			for _, r := range rs {
				fmt.Fprintln(w, r)
			}
			if err == nil {
				var d journal.DayTotals
				if d, err = j.Day(time.Now()); err == nil {
					fmt.Fprintf(w, "today %s: %d sales %s EUR, %d payouts %s EUR, %d claims %s EUR\n", d.Day,
						d.Sales, journal.Euros(d.SalesAmount), d.Payouts, journal.Euros(d.PayoutsAmount), d.Claims, journal.Euros(d.ClaimsAmount))
				}
			}
			return err
		},
	}
	show.Flags().StringVar(&ticket, "ticket", "", "a ticket BLOCK/PACK/POS or a pack BLOCK/PACK")
	show.Flags().IntVar(&last, "last", 10, "number of last records to show")
	show.Flags().StringVar(&pub, "pub", "", "device public key file (default DIR/device.pub)")
	journalCmd.AddCommand(show)
}

// showTicket prints whether the ticket was paid (or the pack sold), from the index, and
// every record that names it.
func showTicket(cmd *cobra.Command, j *journal.Journal, ref string) error {
	id, err := journal.ParseTicketRef(ref)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	var r journal.Record
	var ok bool
	what := "paid"
	if id.Position == 0 {
		what = "sold"
		r, ok, err = j.Sold(id.Block, id.Pack)
	} else {
		r, ok, err = j.Paid(id)
	}
	if err != nil {
		return err
	}
	if ok {
		fmt.Fprintf(w, "%s: yes, record %s at %s\n", what, r.ID(), r.Time.Format(time.RFC3339))
	} else {
		fmt.Fprintf(w, "%s: no\n", what)
	}
	return j.Each(time.Time{}, func(r journal.Record) error {
		if r.Ticket == id || (id.Position == 0 && r.Ticket.Block == id.Block && r.Ticket.Pack == id.Pack) {
			fmt.Fprintln(w, r)
		}
		return nil
	})
}
