package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// reportJSON is fleet report's --json output.
type reportJSON struct {
	Flagged    bool                    `json:"flagged"`
	Report     settle.Report           `json:"report"`
	Settlement *settle.Settlement      `json:"settlement"`
	Claims     claimsJSON              `json:"claims"`
	Conflicts  []settle.BucketConflict `json:"conflicts_bucket"`
	Refused    []refused               `json:"refused_messages"`
}

type claimsJSON struct {
	Count int `json:"count"`
	settle.ClaimCheck
}

// reportFlagged says whether the report shows anything that is not proven or needs the
// operator (docs/fleet.md, "Exit status").
func (r *reportJSON) flagged() bool {
	return !r.Settlement.Clean() || r.Report.Flagged() || r.Claims.Flagged() || len(r.Conflicts) > 0 || len(r.Refused) > 0
}

func (r *reportJSON) writeText(w io.Writer) error {
	writeRefused(w, r.Refused)
	if err := r.Report.WriteText(w); err != nil {
		return err
	}
	cc := r.Claims
	fmt.Fprintf(w, "claims: %d; claimed but no payout published: %d; payouts not claimed by their terminal: %d\n",
		cc.Count, len(cc.ClaimedNotPaid), len(cc.PaidNotClaimed))
	for _, m := range cc.ClaimedNotPaid {
		fmt.Fprintf(w, "  claimed, not paid: ticket %v by %s\n", m.Ticket, m.Claimant)
	}
	for _, m := range cc.PaidNotClaimed {
		fmt.Fprintf(w, "  paid, not claimed: %s ticket %v (claim held by %q)\n", m.Record, m.Ticket, m.Claimant)
	}
	fmt.Fprintf(w, "conflicts bucket: %d conflicts (each stored under both terminals' keys, shown once)\n", len(r.Conflicts))
	for _, cf := range r.Conflicts {
		fmt.Fprintf(w, "  ticket %v: claim held by %s since %s, also paid offline by %s (record %s)\n",
			cf.Ticket, cf.Holder, cf.HolderAt.Format(time.RFC3339), cf.Other, cf.OtherRecord)
	}
	fmt.Fprintln(w)
	return r.Settlement.WriteText(w)
}

func init() {
	var fc fleetConn
	var sf settleFlags
	c := &cobra.Command{
		Use:   "report --data DIR [--manifest block-B.manifest.json|DIR …] [--url URL] [--json]",
		Short: "Per retailer and block: sales, payouts (proven and flagged), claims above the limit, unconfirmed payouts, conflicts",
		Long: `Sum the fleet's journal stream per retailer and block, settle every payout against its
block's seed as fleet settle does (give the manifests of the blocks in circulation with
--manifest: a payout of a block without one is flagged as an unknown ticket), and list
conflicts (records and the conflicts bucket), gaps, forks, terminals not in the registry,
messages the reader refused, and the check of the claims bucket against the payouts.

` + settleExitCodes,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			reg, err := server.LoadRegistry(fc.data)
			if err != nil {
				return err
			}
			truth, err := sf.truth()
			if err != nil {
				return err
			}
			var bucket []settle.BucketConflict
			ff, err := readFleetFacts(c.Context(), &fc, func(st *server.Stores) error {
				cs, err := server.Conflicts(c.Context(), st.Conflicts, "c.>", 0)
				for _, cf := range cs {
					bucket = append(bucket, settle.BucketConflict{Ticket: cf.Ticket, Holder: cf.Holder.Terminal, HolderAt: cf.Holder.At,
						Other: cf.Other.Terminal, OtherRecord: cf.Other.Record})
				}
				return err
			})
			if err != nil {
				return err
			}
			s, err := settle.Settle(ff.recs, truth, ff.claims)
			if err != nil {
				return err
			}
			out := reportJSON{
				Report: settle.BuildSettled(ff.recs, func(id string) (uint32, bool) {
					t, ok := reg.Terminal(id)
					return t.Retailer, ok
				}, s),
				Settlement: s,
				Claims:     claimsJSON{Count: len(ff.claims), ClaimCheck: settle.CheckClaims(ff.claims, ff.recs)},
				Conflicts:  settle.DistinctConflicts(bucket),
				Refused:    ff.bad,
			}
			out.Flagged = out.flagged()
			if sf.json {
				err = writeJSON(c.OutOrStdout(), out)
			} else {
				err = out.writeText(c.OutOrStdout())
			}
			if err != nil {
				return err
			}
			if out.Flagged {
				return &exitError{code: exitFlagged, err: fmt.Errorf("fleet report: %d payouts flagged (%s EUR), %d conflicts, %d gaps, %d forks",
					s.Totals.Flagged, journal.Euros(s.Totals.FlaggedAmount), len(out.Conflicts)+len(out.Report.Conflicts), len(out.Report.Gaps), len(out.Report.Forks))}
			}
			return nil
		},
	}
	fc.flags(c)
	sf.add(c)
	fleetCmd.AddCommand(c)

	var pc fleetConn
	var pubs []string
	p := &cobra.Command{
		Use:   "publish-status --data DIR --pub KEY FILE",
		Short: "Publish a signed pack status list to the fleet: its retailer's terminals fetch and install it",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			nc, _, st, err := pc.open(c.Context())
			if err != nil {
				return err
			}
			defer nc.Close()
			l, err := server.PublishStatus(c.Context(), st, data, trust)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "status list of retailer %d, version %d, published\n", l.Retailer, l.Version)
			return nil
		},
	}
	pc.flags(p)
	p.Flags().StringSliceVar(&pubs, "pub", nil, "trusted operator public key file(s)")
	p.MarkFlagRequired("pub")
	fleetCmd.AddCommand(p)
}
