package main

import (
	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/ledger"
)

// verdictError is a refused code: its text is the retailer's French verdict, and it
// unwraps to the cause (errors.Is with codes' and ledger's errors).
type verdictError struct{ v retail.Verdict }

func (e *verdictError) Error() string { return e.v.Line() }
func (e *verdictError) Unwrap() error { return e.v.Err }

func init() {
	var pubs []string
	var statusFile string
	check := &cobra.Command{
		Use:   "check --pub KEY FILE CODE",
		Short: "Tell what a terminal would answer for a validation code (winner and amount, loser, refused)",
		Long: "Verify the ledger, then answer a validation code (as scanned, or the grouped manual form) as a\n" +
			"terminal would, in French with its reason: GAGNANT with the amount, PERDANT, or a refusal (CODE\n" +
			"INVALIDE for a mistyped code, CODE REFUSÉ for a forged one, BLOC INCONNU, TICKET INCONNU; with\n" +
			"--status, PAQUET ANNULÉ or PAQUET VOLÉ). Exit 0 for a valid ticket, 1 for a refusal.",
		Example: "  posctl ledger check --pub keys/operator.pub block-42.ledger ABCDE-FGHJK-MNPQR-STVWX-YZ012",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			trust, err := loadTrust(pubs)
			if err != nil {
				return err
			}
			l, err := ledger.ReadFile(args[0], trust)
			if err != nil {
				return err
			}
			defer l.Close()
			var status retail.PackStatus
			if statusFile != "" {
				s, err := ledger.LoadStatus(statusFile, trust)
				if err != nil {
					return err
				}
				status = s
			}
			set, err := ledger.NewSet(l)
			if err != nil {
				return err
			}
			v := retail.Judge(set, status, args[1])
			if v.Outcome == decide.Winner || v.Outcome == decide.Loser {
				cmd.Println(v.Line())
				return nil
			}
			cmd.Println(v.Line())
			return &verdictError{v}
		},
	}
	addPubFlag(check, &pubs, true)
	check.Flags().StringVar(&statusFile, "status", "", "pack status list to check the ticket's pack against (void or stolen packs are refused)")
	ledgerCmd.AddCommand(check)
}
