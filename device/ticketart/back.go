package ticketart

import (
	"fmt"
	"image"
	"image/draw"
	"io"

	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// Back draws the back of row's ticket: the ticket code (Interleaved 2 of 5 and its
// digits), the validation code under the latex, scratched (QR code and manual form), and
// the pack code of its sleeve.
func Back(row block.Row) (*image.RGBA, error) {
	fs, err := getFaces()
	if err != nil {
		return nil, err
	}
	tc, err := codes.ParseTicket(row.TicketCode)
	if err != nil {
		return nil, fmt.Errorf("ticketart: ticket code: %w", err)
	}
	vc, err := codes.ParseValidation(row.Validation)
	if err != nil {
		return nil, fmt.Errorf("ticketart: validation code: %w", err)
	}
	pc, err := codes.ParsePack(row.PackCode)
	if err != nil {
		return nil, fmt.Errorf("ticketart: pack code: %w", err)
	}
	if tc.ID() != vc.ID() {
		return nil, fmt.Errorf("ticketart: the ticket code and the validation code name different tickets")
	}
	img := image.NewRGBA(image.Rect(0, 0, Width, maxHeight))
	fill(img, img.Bounds(), paper)
	y := margin
	text(img, fs.label, ink, margin, y, "Code ticket")
	y += lineHeight(fs.label) + 4
	if y, err = drawCode(img, codes.KindTicket, tc.String(), y, barcode.RenderOptions{Module: 3, Height: 90}); err != nil {
		return nil, err
	}
	text(img, fs.body, ink, (Width-measure(fs.body, tc.HumanReadable()))/2, y, tc.HumanReadable())
	y += lineHeight(fs.body) + 18

	top := y
	y += 14
	text(img, fs.label, ink, margin+18, y, "Code de validation (sous la zone grattée)")
	y += lineHeight(fs.label) + 6
	if y, err = drawCode(img, codes.KindValidation, vc.String(), y, barcode.RenderOptions{Module: 7}); err != nil {
		return nil, err
	}
	manual := vc.Manual()
	text(img, fs.body, ink, (Width-measure(fs.body, manual))/2, y, manual)
	y += lineHeight(fs.body) + 12
	frame(img, image.Rect(margin, top, Width-margin, y), 6, latex)
	y += 18

	text(img, fs.small, soft, margin, y, fmt.Sprintf("Paquet (code du fourreau) : %s", pc.HumanReadable()))
	y += lineHeight(fs.small) + 4
	id := tc.ID()
	text(img, fs.small, soft, margin, y, fmt.Sprintf("Bloc %d · paquet %d · ticket %d · ne jamais remettre un ticket gagnant non validé", id.Block, id.Pack, id.Position))
	y += lineHeight(fs.small) + margin
	frame(img, image.Rect(0, 0, Width, y), 3, ink)
	return crop(img, y), nil
}

// drawCode draws kind's code, centred, from y and returns where it ends.
func drawCode(img *image.RGBA, k codes.Kind, text string, y int, o barcode.RenderOptions) (int, error) {
	f, ok := codemap.Format(k)
	if !ok {
		return y, fmt.Errorf("ticketart: no symbology for %v", k)
	}
	code, err := barcode.Render(f, text, o)
	if err != nil {
		return y, fmt.Errorf("ticketart: %w", err)
	}
	b := code.Bounds()
	if b.Dx() > Width-2*margin {
		return y, fmt.Errorf("ticketart: the %v code is %d pixels wide, more than the ticket", k, b.Dx())
	}
	at := image.Pt((Width-b.Dx())/2, y)
	draw.Draw(img, b.Sub(b.Min).Add(at), code, b.Min, draw.Src)
	return y + b.Dy() + 4, nil
}

// Render draws both faces of row's ticket and writes them as PNGs.
func Render(row block.Row, def *game.Definition, front, back io.Writer) error {
	f, err := Front(row, def)
	if err != nil {
		return err
	}
	b, err := Back(row)
	if err != nil {
		return err
	}
	if err := barcode.WritePNG(front, f); err != nil {
		return fmt.Errorf("ticketart: front: %w", err)
	}
	if err := barcode.WritePNG(back, b); err != nil {
		return fmt.Errorf("ticketart: back: %w", err)
	}
	return nil
}
