package block

import (
	"strconv"

	"github.com/packterm/pos/validate/codes"
)

// PrintHeader is the first line of the printer's file: one row per ticket follows.
//
//	pack             pack number in the block (0-based)
//	ticket           position in the pack, 1–8 (= game, article 4.1)
//	game             game number
//	prize_cents      the ticket's lot, 0 when it loses
//	validation_code  the text of the 2D code under the latex, as a scanner delivers it
//	pack_code        the Code 128 text of the pack's sleeve
//	ticket_code      the ITF text on the ticket's back
//	play             what is printed under the scratch zones (validate/game compact form)
const PrintHeader = "pack,ticket,game,prize_cents,validation_code,pack_code,ticket_code,play\n"

// appendRow appends the printer's file row of t.
func appendRow(dst []byte, t *Ticket) []byte {
	dst = strconv.AppendUint(dst, uint64(t.ID.Pack), 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(t.ID.Position), 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(t.ID.Game()), 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(t.Lot), 10)
	dst = append(dst, ',')
	// The identities come from the plan and are in range: formatting cannot fail.
	dst, _ = codes.ValidationCodeOf(t.ID, t.Secret).AppendText(dst)
	dst = append(dst, ',')
	dst, _ = codes.PackCode{Block: t.ID.Block, Pack: t.ID.Pack}.AppendText(dst)
	dst = append(dst, ',')
	dst, _ = codes.TicketCodeOf(t.ID).AppendText(dst)
	dst = append(dst, ',', '"')
	dst = t.Play.AppendEncode(dst)
	return append(dst, '"', '\n')
}
