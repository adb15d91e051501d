package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var keyPath, seedText, out, defPath string
	var number uint16
	var version uint64
	cmd := &cobra.Command{
		Use:   "gen --key DIR/operator.key --block B [--seed S] --out OUT",
		Short: "Generate a whole block: signed ledger, printer's file and manifest",
		Long: `Generate block B exactly as the règlement requires, place its packs by a
cryptographically secure shuffle, draw every ticket's secret and play, and write
OUT/block-B.ledger (signed), OUT/block-B.print.csv.gz and OUT/block-B.manifest.json.
The seed (random unless --seed is given) is recorded in the manifest: the same seed
gives the same files. Keep the manifest and the printer's file secret. Files of the
same block already in OUT are never replaced: the command refuses and changes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			key, err := ledger.LoadPrivateKey(keyPath)
			if err != nil {
				return err
			}
			// Refuse at once, not after the design work, when OUT already holds the block.
			if err := block.CheckFree(out, number); err != nil {
				return err
			}
			d := game.Reglement()
			if defPath != "" {
				data, err := os.ReadFile(defPath)
				if err != nil {
					return err
				}
				if d, err = game.ParseSource(data); err != nil {
					return err
				}
			}
			var seed block.Seed
			if seedText != "" {
				if seed, err = block.ParseSeed(seedText); err != nil {
					return err
				}
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: --seed: every validation secret of this block is only as strong as the seed;\n"+
					"         a known or guessable seed forges every winner. Use --seed for tests and reproductions only.")
			} else if seed, err = block.NewSeed(); err != nil {
				return err
			}
			if err := os.MkdirAll(out, 0o700); err != nil {
				return err
			}
			start := time.Now()
			plan, err := block.NewPlan(d, number, seed)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "design: %d pack patterns in %v (linear relaxation %d columns, %d packs placed by exact search)\n",
				len(plan.Design.Patterns), time.Since(start).Round(time.Millisecond), plan.Design.Stats.Columns, plan.Design.Stats.Residual)
			report, finish := showProgress(cmd.ErrOrStderr(), d.TicketsPerBlock(), "tickets")
			m, err := plan.Files(cmd.Context(), out, version, key, report)
			finish()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "block %d, ledger version %d: %s packs, %s tickets in %v\n", m.Block, m.LedgerVersion,
				game.GroupDigits(int64(m.Packs)), game.GroupDigits(int64(m.Tickets)), time.Since(start).Round(time.Millisecond))
			for _, f := range []struct{ name, sum string }{{m.Ledger, m.LedgerSHA256}, {m.Print, m.PrintSHA256}} {
				st, err := os.Stat(filepath.Join(out, f.name))
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "  %s  %s bytes  sha256 %s\n", filepath.Join(out, f.name), game.GroupDigits(st.Size()), f.sum)
			}
			fmt.Fprintf(w, "  %s  (seed recorded here: keep it secret)\n", filepath.Join(out, block.ManifestFileName(m.Block)))
			return nil
		},
	}
	cmd.Flags().StringVar(&keyPath, "key", "", "operator private key file (from posctl keys gen)")
	numberVar(cmd.Flags(), &number, "block", blockNumber, "block number (1–9999)")
	cmd.Flags().StringVar(&seedText, "seed", "", "seed as 64 hexadecimal digits, for tests and reproductions only (default: drawn from crypto/rand)")
	cmd.Flags().Uint64Var(&version, "version", 1, "ledger version (monotonic: terminals refuse older ones)")
	cmd.Flags().StringVar(&out, "out", "", "output directory")
	cmd.Flags().StringVar(&defPath, "definition", "", "game definition file in reglement.json's format (default: the règlement)")
	for _, f := range []string{"key", "block", "out"} {
		cmd.MarkFlagRequired(f)
	}
	ledgerCmd.AddCommand(cmd)
}
