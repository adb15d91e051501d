//go:build !production

package web

import (
	"bytes"

	"github.com/packterm/pos/device/ticketart"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/validate/codes"
)

// drawLater draws in the background, when the printer's file of the block is known, the
// front of the ticket text names (a ticket or validation code), as scratched, and shows it
// with answer n unless another input came first. The file is read up to the ticket's
// row: seconds for the last packs of a full block.
func (e *emulator) drawLater(n int, text string) {
	if e.s.o.PrintFile == "" || text == "" {
		return
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.drawing.Lock() // one file read at a time
		defer e.drawing.Unlock()
		png := e.drawTicket(text)
		if png == nil {
			return
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.last.N == n {
			e.ticket = png
			e.drawn++
			e.last.Ticket = e.drawn
		}
	}()
}

// drawTicket draws the front of the ticket text names, as a PNG (nil: none drawn).
func (e *emulator) drawTicket(text string) []byte {
	path := e.s.o.PrintFile
	_, c, err := codes.Parse(text)
	if err != nil {
		return nil
	}
	var id codes.TicketID
	switch v := c.(type) {
	case codes.ValidationCode:
		id = v.ID()
	case codes.TicketCode:
		id = v.ID()
	default:
		return nil
	}
	row, err := ticketart.FindRowFile(e.ctx, path, id.Pack, id.Position)
	if err != nil {
		e.s.log.Warn("web: ticket not drawn", "err", err)
		return nil
	}
	if tc, err := codes.ParseTicket(row.TicketCode); err != nil || tc.ID() != id {
		return nil // the printer's file of another block
	}
	img, err := ticketart.Front(row, nil)
	if err != nil {
		e.s.log.Warn("web: ticket not drawn", "err", err)
		return nil
	}
	var b bytes.Buffer
	if err := barcode.WritePNG(&b, img); err != nil {
		return nil
	}
	return b.Bytes()
}
