package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// reportJSON is fleet report's --json output.
type reportJSON struct {
	Flagged    bool                    `json:"flagged"`
	Findings   int                     `json:"findings"` // the text's finding lines
	Report     settle.Report           `json:"report"`
	Terminals  []settle.TerminalLine   `json:"terminals"`
	Settlement *settle.Settlement      `json:"settlement"`
	Claims     claimsJSON              `json:"claims"`
	Conflicts  []settle.BucketConflict `json:"conflicts_bucket"`
	Refused    []refused               `json:"refused_messages"`
	BadValues  []badValue              `json:"bad_values"`
}

type claimsJSON struct {
	Count int `json:"count"`
	settle.ClaimCheck
}

// reportFlagged says whether the report shows anything that is not proven or needs the
// operator (docs/fleet.md, "Exit status").
func (r *reportJSON) flagged() bool {
	return !r.Settlement.Clean() || r.Report.Flagged() || r.Claims.Flagged() || len(r.Conflicts) > 0 || len(r.Refused) > 0 ||
		len(r.BadValues) > 0
}

// findings is one line per finding, each fact once: a refused message; a bucket entry
// that does not read; a conflicted
// ticket (the bucket's entry and both terminals' records on one line); a gap, fork (the
// report's and the settlement's are the same record ids) or unknown terminal; a record
// that fails the witness check (unsigned, bad signature, re-chained) or a terminal with
// no device key; a claim with no payout; a flagged payout with all its reasons (a payout not claimed by its
// terminal is one of them, so it is not listed again).
func (r *reportJSON) findings() []string {
	var out []string
	for _, b := range r.Refused {
		out = append(out, b.line())
	}
	for _, b := range r.BadValues {
		out = append(out, b.line())
	}
	groups := map[codes.TicketID]settle.ConflictGroup{}
	for _, g := range r.Report.ConflictGroups() {
		groups[g.Ticket] = g
	}
	for _, cf := range r.Conflicts {
		line := fmt.Sprintf("conflict: ticket %v: claim held by %s since %s, also paid offline by %s (record %s)",
			cf.Ticket, cf.Holder, cf.HolderAt.Format(time.RFC3339), cf.Other, cf.OtherRecord)
		if g, ok := groups[cf.Ticket]; ok {
			recs := make([]string, 0, len(g.Records))
			for _, c := range g.Records {
				recs = append(recs, c.Record+" "+c.Reason)
			}
			line += "; journalled " + strings.Join(recs, ", ")
			delete(groups, cf.Ticket)
		}
		out = append(out, line)
	}
	for _, g := range r.Report.ConflictGroups() {
		if _, ok := groups[g.Ticket]; ok { // records without a bucket entry
			out = append(out, g.Line())
		}
	}
	for _, g := range r.Report.Gaps {
		out = append(out, fmt.Sprintf("gap: terminal %s records %d..%d not published", g.Terminal, g.First, g.Last))
	}
	forks := map[string]bool{}
	for _, f := range append(slices.Clone(r.Report.Forks), r.Settlement.Forks...) {
		if !forks[f] {
			forks[f] = true
			out = append(out, settle.ForkLine(f))
		}
	}
	for _, u := range r.Report.Unknown {
		out = append(out, fmt.Sprintf("unknown terminal: %s (not in the registry)", u))
	}
	out = append(out, r.Settlement.Witness.Lines()...)
	for _, m := range r.Claims.ClaimedNotPaid {
		out = append(out, fmt.Sprintf("claimed, not paid: ticket %v by %s (no payout published by the holder)", m.Ticket, m.Claimant))
	}
	return append(out, r.Settlement.FlaggedLines()...)
}

func (r *reportJSON) writeText(w io.Writer, lines []string) error {
	if err := r.Report.WriteTable(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := settle.WriteTerminals(w, r.Terminals); err != nil {
		return err
	}
	cc := r.Claims
	fmt.Fprintf(w, "\nclaims: %d; claimed but no payout published: %d; payouts not claimed by their terminal: %d; conflicts: %d\n",
		cc.Count, len(cc.ClaimedNotPaid), len(cc.PaidNotClaimed), len(r.Conflicts))
	if err := r.Settlement.WriteTotals(w); err != nil {
		return err
	}
	if len(lines) == 0 {
		_, err := fmt.Fprintln(w, "\nFINDINGS: none (every payout proven)")
		return err
	}
	fmt.Fprintf(w, "\nFINDINGS: %d (one line each)\n", len(lines))
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", l)
	}
	return nil
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
			opts, err := sf.options()
			if err != nil {
				return err
			}
			truth, err := sf.truth()
			if err != nil {
				return err
			}
			ff, err := readFleetFacts(c.Context(), &fc)
			if err != nil {
				return err
			}
			var bucket []settle.BucketConflict
			for _, cf := range ff.conflicts {
				bucket = append(bucket, settle.BucketConflict{Ticket: cf.Ticket, Holder: cf.Holder.Terminal, HolderAt: cf.Holder.At,
					Other: cf.Other.Terminal, OtherRecord: cf.Other.Record})
			}
			s, err := settle.Settle(ff.recs, truth, ff.claims, append(opts, settle.WithWitness(settle.CheckRecords(ff.recs, reg.DeviceKeys())))...)
			if err != nil {
				return err
			}
			registered := make([]settle.Registered, 0, len(reg.Terminals))
			retailers := map[string]uint32{}
			for _, t := range reg.Terminals {
				registered = append(registered, settle.Registered{ID: t.ID, Retailer: t.Retailer})
				retailers[t.ID] = t.Retailer
			}
			out := reportJSON{
				Report: settle.BuildSettled(ff.recs, func(id string) (uint32, bool) {
					r, ok := retailers[id]
					return r, ok
				}, s),
				Terminals:  settle.Terminals(registered, ff.recs, func(i int) time.Time { return ff.received[i] }, ff.claims),
				Settlement: s,
				Claims:     claimsJSON{Count: len(ff.claims), ClaimCheck: settle.CheckClaims(ff.claims, ff.recs)},
				Conflicts:  settle.DistinctConflicts(bucket),
				Refused:    ff.bad,
				BadValues:  ff.values,
			}
			out.Flagged = out.flagged()
			lines := out.findings()
			out.Findings = len(lines)
			if sf.json {
				err = writeJSON(c.OutOrStdout(), out)
			} else {
				err = out.writeText(c.OutOrStdout(), lines)
			}
			if err != nil {
				return err
			}
			if out.Flagged {
				return &exitError{code: exitFlagged, err: fmt.Errorf("fleet report: %d findings: %d payouts flagged (%s EUR), %d conflicts, %d gaps, %d forks, %d bad values, %d witness findings",
					len(lines), s.Totals.Flagged, journal.Euros(s.Totals.FlaggedAmount), len(out.Conflicts), len(out.Report.Gaps), len(out.Report.Forks), len(out.BadValues),
					len(s.Witness.Lines()))}
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
