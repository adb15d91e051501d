package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/ticketart"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

func init() {
	t := &cobra.Command{
		Use:   "ticket",
		Short: "Tickets as people see them",
	}
	t.AddCommand(ticketRenderCmd())
	root.AddCommand(t)
}

func ticketRenderCmd() *cobra.Command {
	var out, defPath string
	cmd := &cobra.Command{
		Use:   "render PRINTFILE BLOCK/PACK/POS --out DIR",
		Short: "Draw a ticket of a block, front and back, from its row of the printer's file",
		Long: `Read the printer's file (block-N.print.csv.gz, streamed up to the row) and draw the ticket
at position POS (1–8, its game) of pack PACK (from 0): DIR/front.png shows its game and
scratch zones as scratched, in the règlement's words; DIR/back.png its codes (ticket code,
validation code with its manual form, pack code); DIR/ticket.png both faces side by side;
DIR/latex.png the scratched latex area alone. Show ticket.png or latex.png to the
emulator's camera (posd --emulate: !photo FILE, or the web page's upload): the first scans
as the ticket code, the second as the validation code.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return errors.New("ticket render: --out DIR is required")
			}
			b, pack, pos, err := parseTicketPath(args[1])
			if err != nil {
				return fmt.Errorf("ticket render: %w", err)
			}
			var def *game.Definition
			if defPath != "" {
				data, err := os.ReadFile(defPath)
				if err != nil {
					return fmt.Errorf("ticket render: %w", err)
				}
				if def, err = game.ParseSource(data); err != nil {
					return fmt.Errorf("ticket render: %w", err)
				}
			}
			row, err := ticketart.FindRowFile(cmd.Context(), args[0], pack, pos)
			if err != nil {
				return fmt.Errorf("ticket render: %w", err)
			}
			if tc, err := codes.ParseTicket(row.TicketCode); err != nil || tc.ID().Block != b {
				return fmt.Errorf("ticket render: %s is not a printer's file of block %d", args[0], b)
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("ticket render: %w", err)
			}
			if err := ticketart.WriteFiles(row, def, out); err != nil {
				return fmt.Errorf("ticket render: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "block %d pack %d ticket %d (game %d) in %s: %s\n", b, pack, pos, row.Game,
				out, strings.Join(ticketart.Files(), ", "))
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory for front.png and back.png")
	cmd.Flags().StringVar(&defPath, "definition", "", "game definition (source format) for the games' names (default: the règlement's)")
	return cmd
}

// parseTicketPath reads BLOCK/PACK/POS.
func parseTicketPath(s string) (b uint16, pack uint32, pos uint8, err error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return 0, 0, 0, fmt.Errorf("%q: want BLOCK/PACK/POS", s)
	}
	bv, err1 := strconv.ParseUint(parts[0], 10, 16)
	pv, err2 := strconv.ParseUint(parts[1], 10, 32)
	qv, err3 := strconv.ParseUint(parts[2], 10, 8)
	if err := errors.Join(err1, err2, err3); err != nil || qv < 1 || qv > 8 {
		return 0, 0, 0, fmt.Errorf("%q: want BLOCK/PACK/POS (position 1 to 8)", s)
	}
	return uint16(bv), uint32(pv), uint8(qv), nil
}
