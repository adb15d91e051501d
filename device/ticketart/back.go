package ticketart

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"os"
	"path/filepath"

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
	img, _, err := back(row)
	return img, err
}

// Latex draws the scratched latex area of row's ticket alone: the validation code and its
// manual form, what a retailer holds to the camera to validate the ticket.
func Latex(row block.Row) (*image.RGBA, error) {
	img, r, err := back(row)
	if err != nil {
		return nil, err
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out, nil
}

// back draws the back and says where its latex area is.
func back(row block.Row) (*image.RGBA, image.Rectangle, error) {
	fail := func(err error) (*image.RGBA, image.Rectangle, error) { return nil, image.Rectangle{}, err }
	fs, err := getFaces()
	if err != nil {
		return fail(err)
	}
	tc, err := codes.ParseTicket(row.TicketCode)
	if err != nil {
		return fail(fmt.Errorf("ticketart: ticket code: %w", err))
	}
	vc, err := codes.ParseValidation(row.Validation)
	if err != nil {
		return fail(fmt.Errorf("ticketart: validation code: %w", err))
	}
	pc, err := codes.ParsePack(row.PackCode)
	if err != nil {
		return fail(fmt.Errorf("ticketart: pack code: %w", err))
	}
	if tc.ID() != vc.ID() {
		return fail(fmt.Errorf("ticketart: the ticket code and the validation code name different tickets"))
	}
	img := image.NewRGBA(image.Rect(0, 0, Width, maxHeight))
	fill(img, img.Bounds(), paper)
	y := margin
	text(img, fs.label, ink, margin, y, "Code ticket")
	y += lineHeight(fs.label) + 4
	if y, err = drawCode(img, codes.KindTicket, tc.String(), y, barcode.RenderOptions{Module: 3, Height: 90}); err != nil {
		return fail(err)
	}
	text(img, fs.body, ink, (Width-measure(fs.body, tc.HumanReadable()))/2, y, tc.HumanReadable())
	y += lineHeight(fs.body) + 18

	top := y
	y += 14
	text(img, fs.label, ink, margin+18, y, "Code de validation (sous la zone grattée)")
	y += lineHeight(fs.label) + 6
	if y, err = drawCode(img, codes.KindValidation, vc.String(), y, barcode.RenderOptions{Module: 7}); err != nil {
		return fail(err)
	}
	manual := vc.Manual()
	text(img, fs.body, ink, (Width-measure(fs.body, manual))/2, y, manual)
	y += lineHeight(fs.body) + 12
	latexArea := image.Rect(margin, top, Width-margin, y)
	frame(img, latexArea, 6, latex)
	y += 18

	text(img, fs.small, soft, margin, y, fmt.Sprintf("Paquet (code du fourreau) : %s", pc.HumanReadable()))
	y += lineHeight(fs.small) + 4
	id := tc.ID()
	text(img, fs.small, soft, margin, y, fmt.Sprintf("Bloc %d · paquet %d · ticket %d · ne jamais remettre un ticket gagnant non validé", id.Block, id.Pack, id.Position))
	y += lineHeight(fs.small) + margin
	frame(img, image.Rect(0, 0, Width, y), 3, ink)
	return crop(img, y), latexArea, nil
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

// Files are the images WriteFiles writes, by name (a fresh slice at each call).
func Files() []string { return []string{"front.png", "back.png", "ticket.png", "latex.png"} }

// WriteFiles draws row's ticket into dir: front.png and back.png (its faces), ticket.png
// (both, side by side: Photo) and latex.png (the scratched latex area alone: Latex).
func WriteFiles(row block.Row, def *game.Definition, dir string) error {
	f, err := Front(row, def)
	if err != nil {
		return err
	}
	b, r, err := back(row)
	if err != nil {
		return err
	}
	l := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(l, l.Bounds(), b, r.Min, draw.Src)
	names := Files()
	for i, img := range []image.Image{f, b, Photo(f, b), l} {
		if err := writePNG(filepath.Join(dir, names[i]), img); err != nil {
			return err
		}
	}
	return nil
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("ticketart: %w", err)
	}
	if err := barcode.WritePNG(f, img); err != nil {
		f.Close()
		return fmt.Errorf("ticketart: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("ticketart: %w", err)
	}
	return nil
}

// Photo lays the two faces side by side, as a photo of a ticket turned over beside its
// front would show them: what the emulator's page shows next to the terminal's answer.
func Photo(front, back image.Image) *image.RGBA {
	fb, bb := front.Bounds(), back.Bounds()
	const gap = 40
	out := image.NewRGBA(image.Rect(0, 0, fb.Dx()+bb.Dx()+3*gap, max(fb.Dy(), bb.Dy())+2*gap))
	fill(out, out.Bounds(), color.RGBA{0x9a, 0x8a, 0x70, 0xff}) // a wooden counter
	draw.Draw(out, fb.Sub(fb.Min).Add(image.Pt(gap, gap)), front, fb.Min, draw.Src)
	draw.Draw(out, bb.Sub(bb.Min).Add(image.Pt(fb.Dx()+2*gap, gap)), back, bb.Min, draw.Src)
	return out
}
