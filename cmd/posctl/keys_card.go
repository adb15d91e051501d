package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/techcard"
)

// minCardToken is the shortest technician token a card is made for: the token also opens
// the maintenance link and the status page, and guessing is only slowed, not stopped.
const minCardToken = 12

func init() {
	var tokenFile, out string
	card := &cobra.Command{
		Use:   "card --token-file F --out card.png",
		Short: "Make the technician's unlock card: the token as a QR code, and the hash for the configuration",
		Long: "Render the technician token (--token-file, else $POS_TECH_TOKEN) as a QR code holding\n" +
			"\"POSTECH1:\" and the token, the card a technician scans to unlock a tamper-locked terminal\n" +
			"(a locked terminal tries only scans of that shape as the token), and print the line that goes into the\n" +
			"terminal's configuration ([technician] token_sha256). The PNG holds the token: it is written\n" +
			"with mode 0600 and never over an existing file. A token under 12 characters is refused.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return fmt.Errorf("keys card: --out FILE.png is required")
			}
			tok, err := readToken(tokenFile)
			if err != nil {
				return fmt.Errorf("keys card: %w", err)
			}
			if len(tok) < minCardToken {
				return fmt.Errorf("keys card: the token has %d characters, at least %d wanted", len(tok), minCardToken)
			}
			text, err := techcard.Encode(tok) // the card's shape: what a locked terminal tries as the token
			if err != nil {
				return fmt.Errorf("keys card: %w", err)
			}
			img, err := barcode.Render(barcode.QRCode, text, barcode.RenderOptions{Module: 6})
			if err != nil {
				return fmt.Errorf("keys card: %w", err)
			}
			err = atomicfile.CreateNew(out, 0o600, func(w io.Writer) error { return barcode.WritePNG(w, img) })
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("keys card: %s exists: not overwritten", out)
			}
			if err != nil {
				return fmt.Errorf("keys card: %w", err)
			}
			sum := sha256.Sum256(tok)
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "card: %s (holds the token: keep it as you keep the token)\n", out)
			fmt.Fprintf(w, "[technician]\ntoken_sha256 = %q\n", hex.EncodeToString(sum[:]))
			return nil
		},
	}
	card.Flags().StringVar(&tokenFile, "token-file", "", "file holding the technician token (else $POS_TECH_TOKEN)")
	card.Flags().StringVar(&out, "out", "", "the card's PNG (created, mode 0600)")
	keysCmd.AddCommand(card)
}
