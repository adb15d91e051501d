package main

import (
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var (
		key, out                string
		retailer                uint32
		version                 uint64
		issued                  int64
		delivered, void, stolen []string
	)
	gen := &cobra.Command{
		Use:   "gen --key DIR/operator.key --retailer N --version V --out FILE [--delivered B:F-L]… [--void B:F-L]… [--stolen B:F-L]…",
		Short: "Write a signed pack status list for one retailer",
		Long: "Write a signed, versioned pack status list for one retailer: ranges of packs delivered to it\n" +
			"(sellable there) and packs void or stolen (their tickets are refused everywhere). A range is\n" +
			"BLOCK:FIRST or BLOCK:FIRST-LAST, pack numbers 0-based and inclusive. Format: docs/ledger.md.",
		Example: "  posctl status gen --key keys/operator.key --retailer 7001 --version 3 --out pack-status.list \\\n" +
			"      --delivered 42:1000-1499 --stolen 42:1200 --void 43:5",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s := &ledger.StatusList{Retailer: retailer, Version: version, Issued: issued}
			if !cmd.Flags().Changed("issued") {
				s.Issued = time.Now().Unix()
			}
			for _, set := range []struct {
				specs []string
				state ledger.PackState
			}{{delivered, ledger.PackDelivered}, {void, ledger.PackVoid}, {stolen, ledger.PackStolen}} {
				for _, spec := range set.specs {
					r, err := parsePackRange(spec, set.state)
					if err != nil {
						return err
					}
					s.Ranges = append(s.Ranges, r)
				}
			}
			priv, err := ledger.LoadPrivateKey(key) // after the ranges: a typo costs no key access
			if err != nil {
				return err
			}
			if err := ledger.WriteStatus(out, s, priv); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: retailer %d, version %d, %d ranges, signed by key %v\n", out, retailer, version, len(s.Ranges), ledger.IDOf(priv.Public().(ed25519.PublicKey)))
			return nil
		},
	}
	f := gen.Flags()
	f.StringVar(&key, "key", "", "operator private key file")
	f.StringVar(&out, "out", "", "status list file to write")
	f.Uint32Var(&retailer, "retailer", 0, "retailer id")
	f.Uint64Var(&version, "version", 0, "list version (terminals refuse a version lower than theirs)")
	f.Int64Var(&issued, "issued", 0, "issue time in Unix seconds (default now)")
	f.StringSliceVar(&delivered, "delivered", nil, "packs delivered to the retailer: BLOCK:FIRST[-LAST] (repeatable)")
	f.StringSliceVar(&void, "void", nil, "void packs: BLOCK:FIRST[-LAST] (repeatable)")
	f.StringSliceVar(&stolen, "stolen", nil, "stolen packs: BLOCK:FIRST[-LAST] (repeatable)")
	for _, name := range []string{"key", "out", "retailer", "version"} {
		gen.MarkFlagRequired(name)
	}
	statusCmd.AddCommand(gen)
}
