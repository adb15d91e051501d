package printeremul

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"sync"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/inconsolata"
	"golang.org/x/image/math/fixed"
)

// margin is the white border around the print area in the PNG, in dots.
const margin = 16

type glyphKey struct {
	r    rune
	bold bool
}

var glyphs sync.Map // glyphKey → *image.Alpha

// glyph renders r in an 8×16 cell of the inconsolata bitmap face (alpha mask), cached.
func glyph(r rune, bold bool) *image.Alpha {
	k := glyphKey{r, bold}
	if g, ok := glyphs.Load(k); ok {
		return g.(*image.Alpha)
	}
	face := inconsolata.Regular8x16
	if bold {
		face = inconsolata.Bold8x16
	}
	g := glyphFace(face, r)
	glyphs.Store(k, g)
	return g
}

func glyphFace(face *basicfont.Face, r rune) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, face.Advance, face.Height))
	d := font.Drawer{Dst: m, Src: image.Opaque, Face: face, Dot: fixed.P(0, face.Ascent)}
	d.DrawString(string(r))
	return m
}

// drawCell draws glyph g scaled to the w×h dot cell at (x, y).
func drawCell(dst *image.Gray, g *image.Alpha, x, y, w, h int, ink color.Gray) {
	gw, gh := g.Rect.Dx(), g.Rect.Dy()
	for dy := 0; dy < h; dy++ {
		for dx := 0; dx < w; dx++ {
			if g.AlphaAt(dx*gw/w, dy*gh/h).A >= 0x80 {
				dst.SetGray(x+dx, y+dy, ink)
			}
		}
	}
}

// Image draws the receipt as the paper would look (1 pixel per dot, 180 dpi).
func (r Receipt) Image() (*image.Gray, error) {
	dots := 0
	for _, l := range r.Lines {
		dots = max(dots, l.Dots)
	}
	if dots == 0 {
		dots = 576
	}
	// First pass: height.
	h := 2 * margin
	blocks := make([]*image.Gray, len(r.Lines))
	for i, l := range r.Lines {
		img, err := lineImage(l, dots)
		if err != nil {
			return nil, fmt.Errorf("printeremul: line %d: %w", i, err)
		}
		blocks[i] = img
		h += img.Rect.Dy()
	}
	out := image.NewGray(image.Rect(0, 0, dots+2*margin, h))
	fill(out)
	y := margin
	for _, b := range blocks {
		draw.Draw(out, image.Rect(margin, y, margin+b.Rect.Dx(), y+b.Rect.Dy()), b, image.Point{}, draw.Src)
		y += b.Rect.Dy()
	}
	if r.Interrupted { // torn edge
		for x := 0; x < out.Rect.Dx(); x++ {
			out.SetGray(x, h-1-(x/4)%4, color.Gray{0x80})
		}
	} else if r.Cut != "" {
		for x := 0; x < out.Rect.Dx(); x += 4 {
			out.SetGray(x, h-1, color.Gray{})
			out.SetGray(x+1, h-1, color.Gray{})
		}
	}
	return out, nil
}

// WritePNG encodes Image as PNG.
func (r Receipt) WritePNG(w io.Writer) error {
	img, err := r.Image()
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}

func blank(w, h int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, max(h, 1)))
	fill(img)
	return img
}

// place puts b into a dots-wide strip according to align.
func place(b *image.Gray, dots, align int) *image.Gray {
	out := blank(dots, b.Rect.Dy())
	x := 0
	switch align {
	case 1:
		x = (dots - b.Rect.Dx()) / 2
	case 2:
		x = dots - b.Rect.Dx()
	}
	x = max(x, 0)
	draw.Draw(out, image.Rect(x, 0, x+b.Rect.Dx(), b.Rect.Dy()), b, image.Point{}, draw.Src)
	return out
}

func lineImage(l Line, dots int) (*image.Gray, error) {
	switch l.Kind {
	case TextLine:
		return textImage(l, dots), nil
	case FeedLine:
		return blank(dots, l.Height), nil
	case ImageLine:
		return place(l.Image, dots, l.Align), nil
	case BarcodeLine:
		return barcodeImage(l, dots)
	case QRLine:
		return qrImage(l, dots)
	}
	return textImage(Line{Segments: []Segment{{Text: "[NV image " + l.Data + "]", Style: Style{Width: 1, Height: 1}}}}, dots), nil
}

func textImage(l Line, dots int) *image.Gray {
	cellW, cellH := 12, 24
	lineH := 24
	width := 0
	for _, s := range l.Segments {
		cw, ch := cellW, cellH
		if s.Style.FontB {
			cw, ch = 9, 17
		}
		width += len([]rune(s.Text)) * cw * s.Style.Width
		lineH = max(lineH, ch*s.Style.Height)
	}
	strip := blank(max(width, 1), lineH+6)
	x := 0
	for _, s := range l.Segments {
		cw, ch := cellW, cellH
		if s.Style.FontB {
			cw, ch = 9, 17
		}
		w, h := cw*s.Style.Width, ch*s.Style.Height
		y := lineH - h
		for _, r := range s.Text {
			ink := color.Gray{}
			if s.Style.Reverse {
				draw.Draw(strip, image.Rect(x, y, x+w, y+h), image.Black, image.Point{}, draw.Src)
				ink = color.Gray{0xFF}
			}
			drawCell(strip, glyph(r, s.Style.Bold), x, y, w, h, ink)
			for u := 0; u < s.Style.Underline; u++ {
				for dx := 0; dx < w; dx++ {
					strip.SetGray(x+dx, lineH+1+u, color.Gray{})
				}
			}
			x += w
		}
	}
	return place(strip, dots, l.Align)
}

func matrixImage(m *gozxing.BitMatrix, mod, height int) *image.Gray {
	w := m.GetWidth() * mod
	rows := m.GetHeight()
	if height == 0 {
		height = rows * mod
	}
	img := blank(w, height)
	for y := 0; y < height; y++ {
		my := y * rows / height
		for x := 0; x < w; x++ {
			if m.Get(x/mod, my) {
				img.SetGray(x, y, color.Gray{})
			}
		}
	}
	return img
}

func barcodeImage(l Line, dots int) (*image.Gray, error) {
	var w gozxing.Writer
	var f gozxing.BarcodeFormat
	switch l.Symbology {
	case "Code128":
		w, f = oned.NewCode128Writer(), gozxing.BarcodeFormat_CODE_128
	case "ITF":
		w, f = oned.NewITFWriter(), gozxing.BarcodeFormat_ITF
	case "EAN13":
		w, f = oned.NewEAN13Writer(), gozxing.BarcodeFormat_EAN_13
	case "Code39":
		w, f = oned.NewCode39Writer(), gozxing.BarcodeFormat_CODE_39
	default:
		return textImage(Line{Align: l.Align, Segments: []Segment{{Text: "[" + l.Symbology + " " + l.Data + "]", Style: Style{Width: 1, Height: 1}}}}, dots), nil
	}
	m, err := w.Encode(l.Data, f, 0, 1, map[gozxing.EncodeHintType]any{gozxing.EncodeHintType_MARGIN: 10})
	if err != nil {
		return nil, fmt.Errorf("draw %s %q: %w", l.Symbology, l.Data, err)
	}
	bars := matrixImage(m, l.Module, l.Height)
	// The human-readable line is centred under (or over) the bars.
	bw := max(bars.Rect.Dx(), len(l.Data)*12)
	block := place(bars, bw, 1)
	hri := textImage(Line{Align: 1, Segments: []Segment{{Text: l.Data, Style: Style{Width: 1, Height: 1}}}}, bw)
	if l.HRI&1 != 0 {
		block = stack(hri, block)
	}
	if l.HRI&2 != 0 {
		block = stack(block, hri)
	}
	return stack(place(block, dots, l.Align), blank(dots, 6)), nil
}

func qrImage(l Line, dots int) (*image.Gray, error) {
	m, err := qrcode.NewQRCodeWriter().Encode(l.Data, gozxing.BarcodeFormat_QR_CODE, 0, 0,
		map[gozxing.EncodeHintType]any{gozxing.EncodeHintType_ERROR_CORRECTION: string(l.ECC), gozxing.EncodeHintType_MARGIN: 2})
	if err != nil {
		return nil, fmt.Errorf("draw QR: %w", err)
	}
	return stack(place(matrixImage(m, l.Module, 0), dots, l.Align), blank(dots, 6)), nil
}
