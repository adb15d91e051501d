package main

import (
	"encoding/hex"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var pubs []string
	inspect := &cobra.Command{
		Use:   "inspect FILE [--pub KEY]",
		Short: "Print a ledger's header, counts, per-game tier tables and signature status",
		Long: "Print what a ledger file says of itself: header fields, counts, the tier table of each game\n" +
			"(tier k = k-th line of the game's prize table; 0 = losing ticket) and the signature and hash\n" +
			"status. Without --pub the signature is reported as not checked; the hash tree is always checked.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var trust *ledger.TrustStore
			if len(pubs) > 0 {
				var err error
				if trust, err = loadTrust(pubs); err != nil {
					return err
				}
			}
			in, err := ledger.InspectFile(args[0], trust)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "file:            %s (%s bytes)\n", args[0], game.GroupDigits(int64(in.Size)))
			fmt.Fprintf(w, "format:          %s version %d, %d-bit entries (%d tier bits, %d check bits)\n", ledger.Magic, ledger.FormatVersion, ledger.EntryBits, ledger.TierBits, ledger.CheckBits)
			fmt.Fprintf(w, "block:           %d\n", in.Block)
			fmt.Fprintf(w, "ledger version:  %d\n", in.Version)
			fmt.Fprintf(w, "packs:           %s of %d tickets\n", game.GroupDigits(int64(in.Packs)), in.Definition.TicketsPerPack)
			fmt.Fprintf(w, "tickets:         %s\n", game.GroupDigits(int64(in.Entries())))
			fmt.Fprintf(w, "hash tree:       %d chunk(s) of up to %s entries, root %s\n", in.Chunks, game.GroupDigits(int64(in.ChunkEntries)), hex.EncodeToString(in.Root[:]))
			fmt.Fprintf(w, "signing key:     %v\n", in.KeyID)
			switch {
			case trust == nil:
				fmt.Fprintf(w, "signature:       not checked (no --pub)\n")
			case in.Signature != nil:
				fmt.Fprintf(w, "signature:       INVALID: %v\n", in.Signature)
			default:
				fmt.Fprintf(w, "signature:       valid (trusted key %v)\n", in.KeyID)
			}
			if in.Hashes != nil {
				fmt.Fprintf(w, "entries:         CORRUPT: %v\n", in.Hashes)
			} else {
				fmt.Fprintf(w, "entries:         match the hash tree\n")
			}
			d := in.Definition
			fmt.Fprintf(w, "game:            pack of %d tickets at %v; tables per block of %s packs\n", d.TicketsPerPack, d.PackPrice, game.GroupDigits(int64(d.BlockPacks)))
			for _, g := range d.Games {
				fmt.Fprintf(w, "\ngame %d, %q (article %s): %s winning tickets\n", g.Number, g.Name, g.Article, game.GroupDigits(int64(g.Winners())))
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintf(tw, "  tier\tlot\tcount\t\n")
				fmt.Fprintf(tw, "  0\tlosing\t%s\t\n", game.GroupDigits(int64(d.BlockPacks-g.Winners())))
				for k, t := range g.Tiers {
					fmt.Fprintf(tw, "  %d\t%v\t%s\t\n", k+1, t.Amount, game.GroupDigits(int64(t.Count)))
				}
				tw.Flush()
			}
			if trust != nil && in.Signature != nil {
				return fmt.Errorf("ledger: signature: %w", in.Signature)
			}
			if in.Hashes != nil {
				return in.Hashes
			}
			return nil
		},
	}
	addPubFlag(inspect, &pubs, false)
	ledgerCmd.AddCommand(inspect)
}
