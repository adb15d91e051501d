package main

import (
	"errors"
	"fmt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
	"github.com/spf13/cobra"
)

func init() {
	var pubs []string
	var statusFile string
	check := &cobra.Command{
		Use:   "check --pub KEY FILE CODE",
		Short: "Tell what a terminal would answer for a validation code (winner and amount, loser, refused)",
		Long: "Verify the ledger, then answer a validation code (as scanned, or the grouped manual form) as a\n" +
			"terminal would: GAGNANT with the amount, PERDANT, or a refusal (invalid or forged code, unknown\n" +
			"block, ticket out of range; with --status, void or stolen pack). Exit 0 for a valid ticket, 1 for\n" +
			"a refusal.",
		Example: "  posctl ledger check --pub keys/operator.pub block-42.ledger ABCDE-FGHJK-MNPQR-STVWX-YZ012",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			code, err := codes.ParseValidation(args[1])
			if err != nil {
				fmt.Fprintln(w, "CODE INVALIDE")
				return err
			}
			l, err := ledger.ReadFile(args[0], trust)
			if err != nil {
				return err
			}
			defer l.Close()
			id := code.ID()
			if statusFile != "" {
				s, err := ledger.LoadStatus(statusFile, trust)
				if err != nil {
					return err
				}
				if s.Void(id.Block, id.Pack) {
					fmt.Fprintf(w, "PACK ANNULÉ : ticket %v refusé (pack %v)\n", id, s.State(id.Block, id.Pack))
					return fmt.Errorf("ticket %v: pack %v", id, s.State(id.Block, id.Pack))
				}
			}
			r, err := l.Lookup(code)
			switch {
			case errors.Is(err, ledger.ErrUnknownBlock):
				fmt.Fprintf(w, "BLOC INCONNU : code du bloc %d, registre du bloc %d\n", id.Block, l.Header().Block)
				return err
			case errors.Is(err, ledger.ErrForged):
				fmt.Fprintf(w, "CODE INVALIDE : faux code ou code mal saisi (ticket %v)\n", id)
				return err
			case errors.Is(err, ledger.ErrOutOfRange):
				fmt.Fprintf(w, "TICKET INCONNU : ticket %v hors du registre\n", id)
				return err
			case err != nil:
				return err
			}
			where := fmt.Sprintf("ticket %v, jeu %d « %s »", r.Ticket, r.Game.Number, r.Game.Name)
			if r.Winner() {
				fmt.Fprintf(w, "GAGNANT : %v (%s, ligne %d du tableau)\n", r.Lot, where, r.Tier)
			} else {
				fmt.Fprintf(w, "PERDANT (%s)\n", where)
			}
			return nil
		},
	}
	addPubFlag(check, &pubs, true)
	check.Flags().StringVar(&statusFile, "status", "", "pack status list to check the ticket's pack against (void or stolen packs are refused)")
	ledgerCmd.AddCommand(check)
}
