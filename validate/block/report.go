package block

import (
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/packterm/pos/validate/game"
)

// Write prints the report for an auditor to read and sign (French, as the règlement).
func (r *Report) Write(w io.Writer) error {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("RAPPORT D'AUDIT DU BLOC %04d\n\n", r.Block)
	p("Fichier d'impression, SHA-256 : %s\n", hex.EncodeToString(r.PrintSHA256[:]))
	p("Registre signé, racine        : %s (clé opérateur %s)\n", hex.EncodeToString(r.LedgerRoot[:]), hex.EncodeToString(r.LedgerKey[:]))
	if r.IsReglement {
		p("Définition du jeu du registre : identique au règlement particulier, à l'unité\n")
	} else {
		p("Définition du jeu du registre : DIFFÉRENTE du règlement particulier (bloc d'essai ?)\n")
	}
	d := r.Definition
	p("\nLignes lues : %s ; packs complets : %s sur %s\n", group(r.Rows), group(r.Packs), group(d.BlockPacks))
	p("Codes cohérents (validation, pack, ticket) : %s\n", group(r.Checked.Codes))
	p("Jeux imprimés conformes aux règles et au lot : %s\n", group(r.Checked.Plays))
	p("Codes de validation confirmés par le registre scellé : %s\n", group(r.Checked.Ledger))

	p("\nArticle 3.1, lots du pack, recomptés depuis le fichier\n")
	if err := table(w, d.PackTable, r.PackCounts); err != nil {
		return err
	}
	p("\nArticle 3.2, packs par nombre de tickets gagnants (autorisés : %s)\n", d.WinnersText())
	for n, c := range r.ByWinners {
		if c > 0 {
			mark := ""
			if !slices.Contains(d.WinnersPerPack, n) {
				mark = "  ÉCART"
			}
			p("  %d gagnant(s) : %s packs%s\n", n, group(c), mark)
		}
	}
	for g, gm := range d.Games {
		p("\nArticle %s.2, jeu %d « %s »\n", gm.Article, gm.Number, gm.Name)
		if err := table(w, gm.Tiers, r.GameCounts[g]); err != nil {
			return err
		}
	}
	p("\n")
	if r.OK() {
		p("CONCLUSION : aucun écart. Tous les tableaux et toutes les règles des articles 3 et 4 sont respectés.\n")
	} else {
		p("CONCLUSION : %s ÉCART(S). Le bloc n'est pas conforme.\n", group(r.Problems))
		for _, s := range r.Samples {
			p("  - %s\n", s)
		}
		if r.Problems > len(r.Samples) {
			p("  … et %s autre(s)\n", group(r.Problems-len(r.Samples)))
		}
	}
	p("\nAuditeur : ______________________   Date : ____________   Signature : ______________\n")
	return nil
}

// table prints a prize table with the counts found beside the counts required.
func table(w io.Writer, tiers []game.Tier, got map[game.Cents]int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "MONTANT\tTABLEAU\tTROUVÉS\tTOTAL\t\t\n")
	var sum game.Cents
	n := 0
	for _, t := range tiers {
		mark := "ok"
		if got[t.Amount] != t.Count {
			mark = "ÉCART"
		}
		total := t.Amount * game.Cents(got[t.Amount])
		fmt.Fprintf(tw, "%v\t%s\t%s\t%v\t%s\t\n", t.Amount, group(t.Count), group(got[t.Amount]), total, mark)
		sum += total
		n += got[t.Amount]
	}
	fmt.Fprintf(tw, "total\t\t%s\t%v\t\t\n", group(n), sum)
	return tw.Flush()
}

func group(n int) string { return game.GroupDigits(int64(n)) }
