package web

import (
	"bytes"

	"github.com/packterm/pos/device/ticketart"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/validate/codes"
)

// drawTicket draws, when the printer's file of the block is known, the front of the
// ticket text names (a ticket or validation code), as scratched, and returns its number
// for the page (0: nothing drawn).
func (e *emulator) drawTicket(text string) int {
	path := e.s.o.PrintFile
	if path == "" || text == "" {
		return 0
	}
	_, c, err := codes.Parse(text)
	if err != nil {
		return 0
	}
	var id codes.TicketID
	switch v := c.(type) {
	case codes.ValidationCode:
		id = v.ID()
	case codes.TicketCode:
		id = v.ID()
	default:
		return 0
	}
	row, err := ticketart.FindRowFile(path, id.Pack, id.Position)
	if err != nil {
		e.s.log.Warn("web: ticket not drawn", "err", err)
		return 0
	}
	if tc, err := codes.ParseTicket(row.TicketCode); err != nil || tc.ID() != id {
		return 0 // the printer's file of another block
	}
	img, err := ticketart.Front(row, nil)
	if err != nil {
		e.s.log.Warn("web: ticket not drawn", "err", err)
		return 0
	}
	var b bytes.Buffer
	if err := barcode.WritePNG(&b, img); err != nil {
		return 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ticket = b.Bytes()
	e.drawn++
	return e.drawn
}
