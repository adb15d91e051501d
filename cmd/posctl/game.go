package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/internal/money"
	"github.com/packterm/pos/validate/game"
)

func init() {
	gameCmd := &cobra.Command{Use: "game", Short: "The game of the règlement: tables and plays"}

	var asJSON bool
	show := &cobra.Command{
		Use:   "show",
		Short: "Print the prize tables (articles 3 and 4)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d := game.Reglement()
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(d)
			}
			return d.WriteTables(cmd.OutOrStdout())
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "machine-readable output (amounts in cents)")

	var seed uint64
	var compact bool
	play := &cobra.Command{
		Use:     "play GAME LOT",
		Short:   "Print a generated play of GAME (1–8) winning LOT euros (0 for a losing play)",
		Example: "  posctl game play 7 50\n  posctl game play 5 0 --seed 42",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			n8, err := numberArg[uint8](gameNumber, args[0])
			if err != nil {
				return err
			}
			n := int(n8)
			lot, err := parseEurosArg(args[1])
			if err != nil {
				return err
			}
			d := game.Reglement()
			g := d.Game(n)
			if g == nil {
				return fmt.Errorf("no game %d: games are 1 to %d", n, len(d.Games))
			}
			if !cmd.Flags().Changed("seed") {
				var b [8]byte
				if _, err := rand.Read(b[:]); err != nil {
					return err
				}
				seed = binary.LittleEndian.Uint64(b[:])
			}
			var key [32]byte
			binary.LittleEndian.PutUint64(key[:], seed)
			p, err := d.Generate(mrand.New(mrand.NewChaCha8(key)), n, lot)
			if err != nil {
				return err
			}
			won, err := d.Evaluate(p)
			if err != nil {
				return err
			}
			wins, err := d.Wins(p)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Ticket %d, « %s » (article %s), graine %d\n", g.Number, g.Name, g.Article, seed)
			for _, l := range p.Describe() {
				fmt.Fprintln(out, "  "+l)
			}
			if won > 0 {
				fmt.Fprintf(out, "Résultat : gagnant, %v\n", won)
				fmt.Fprintln(out, "Le lot est formé de :")
				for _, w := range wins {
					fmt.Fprintln(out, "  "+w.String())
				}
			} else {
				fmt.Fprintln(out, "Résultat : perdant")
			}
			if compact {
				fmt.Fprintln(out, "Forme compacte :", game.EncodePlay(p))
			}
			return nil
		},
	}
	play.Flags().Uint64Var(&seed, "seed", 0, "seed of the generator (random when unset)")
	play.Flags().BoolVar(&compact, "compact", false, "also print the play's compact form (printer's file)")

	gameCmd.AddCommand(show, play)
	root.AddCommand(gameCmd)
}

// parseEurosArg reads a lot in euros with money.Parse, the one grammar of every amount
// ("50", "50 €", "2,50", "15 000"; "2.50" is refused: a dot is ambiguous).
func parseEurosArg(s string) (game.Cents, error) {
	c, err := money.Parse(s)
	if err != nil {
		return 0, fmt.Errorf("lot: %w", err)
	}
	if c > int64(game.Euros(10_000_000)) {
		return 0, fmt.Errorf("lot %q: at most 10 000 000 €", s)
	}
	return game.Cents(c), nil
}
