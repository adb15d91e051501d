package main

import (
	"fmt"
	"os"
	"time"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/settle"
	"github.com/spf13/cobra"
)

func init() {
	var fc fleetConn
	c := &cobra.Command{
		Use:   "report --data DIR [--url URL]",
		Short: "Per retailer and block: sales, payouts, claims above the limit, unconfirmed payouts, conflicts",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			reg, err := server.LoadRegistry(fc.data)
			if err != nil {
				return err
			}
			nc, js, st, err := fc.open(c.Context())
			if err != nil {
				return err
			}
			defer nc.Close()
			recs, err := fleetRecords(c.Context(), js, c)
			if err != nil {
				return err
			}
			rep := settle.Build(recs, func(id string) (uint32, bool) {
				t, ok := reg.Terminal(id)
				return t.Retailer, ok
			})
			if err := rep.WriteText(c.OutOrStdout()); err != nil {
				return err
			}
			claims, err := server.AllClaims(c.Context(), st.Claims)
			if err != nil {
				return err
			}
			cc := settle.CheckClaims(claims, recs)
			fmt.Fprintf(c.OutOrStdout(), "claims: %d; claimed but no payout published: %d; payouts not claimed by their terminal: %d\n",
				len(claims), len(cc.ClaimedNotPaid), len(cc.PaidNotClaimed))
			for _, m := range cc.ClaimedNotPaid {
				fmt.Fprintf(c.OutOrStdout(), "  claimed, not paid: ticket %v by %s\n", m.Ticket, m.Claimant)
			}
			for _, m := range cc.PaidNotClaimed {
				fmt.Fprintf(c.OutOrStdout(), "  paid, not claimed: %s ticket %v (claim held by %q)\n", m.Record, m.Ticket, m.Claimant)
			}
			cs, err := server.Conflicts(c.Context(), st.Conflicts, "c.>", 0)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "conflicts bucket: %d entries (one per terminal and ticket)\n", len(cs))
			for _, cf := range cs {
				fmt.Fprintf(c.OutOrStdout(), "  ticket %v: claim held by %s since %s, also paid offline by %s (record %s)\n",
					cf.Ticket, cf.Holder.Terminal, cf.Holder.At.UTC().Format(time.RFC3339), cf.Other.Terminal, cf.Other.Record)
			}
			return nil
		},
	}
	fc.flags(c)
	fleetCmd.AddCommand(c)

	var sc fleetConn
	var manifest string
	s := &cobra.Command{
		Use:   "settle --manifest block-B.manifest.json --data DIR [--url URL]",
		Short: "List every payout of the block whose validation code is not the ticket's true code (forgeries)",
		Long: "Re-derive each paid ticket's secret from the block's recorded seed (its manifest) and check the\n" +
			"validation code of every payout record of that block in the fleet's journal stream. Exit status\n" +
			"3 when a forged payout is found.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := os.Open(manifest)
			if err != nil {
				return err
			}
			m, err := settle.ReadManifest(f)
			f.Close()
			if err != nil {
				return err
			}
			nc, js, _, err := sc.open(c.Context())
			if err != nil {
				return err
			}
			defer nc.Close()
			recs, err := fleetRecords(c.Context(), js, c)
			if err != nil {
				return err
			}
			res, err := settle.Forgeries(m, recs)
			if err != nil {
				return err
			}
			if err := res.WriteText(c.OutOrStdout()); err != nil {
				return err
			}
			if len(res.Forgeries) > 0 {
				return &exitError{code: 3, err: fmt.Errorf("%d forged payouts in block %d", len(res.Forgeries), m.Block)}
			}
			return nil
		},
	}
	sc.flags(s)
	s.Flags().StringVar(&manifest, "manifest", "", "the block's manifest (records its seed)")
	s.MarkFlagRequired("manifest")
	fleetCmd.AddCommand(s)

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
