package ticketart

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// maxHeight bounds a face while it is drawn; it is cropped to what it uses.
const maxHeight = 2400

// zone is one scratch zone as Describe words it: "label : content".
type zone struct {
	label   string
	content string
	items   []string // the symbols, when the content lists several (" · ")
}

func zones(p game.Play) []zone {
	var out []zone
	for _, line := range p.Describe() {
		z := zone{content: line}
		if l, c, ok := strings.Cut(line, " : "); ok {
			z.label, z.content = l, c
		}
		if strings.Contains(z.content, " · ") {
			z.items = strings.Split(z.content, " · ")
		}
		out = append(out, z)
	}
	return out
}

// Front draws the front of row's ticket, scratched: its game of def (nil: the
// règlement's) and each zone with the play under it.
func Front(row block.Row, def *game.Definition) (*image.RGBA, error) {
	fs, err := getFaces()
	if err != nil {
		return nil, err
	}
	if def == nil {
		def = game.Reglement()
	}
	play, err := game.ParsePlay(int(row.Game), row.Play)
	if err != nil {
		return nil, fmt.Errorf("ticketart: pack %d ticket %d: %w", row.Pack, row.Position, err)
	}
	name, article := fmt.Sprintf("Jeu %d", row.Game), ""
	for _, g := range def.Games {
		if g.Number == int(row.Game) {
			name, article = g.Name, g.Article
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, Width, maxHeight))
	fill(img, img.Bounds(), paper)
	band := gameColor(int(row.Game))
	fill(img, image.Rect(0, 0, Width, 96), band)
	text(img, fs.small, color.White, margin, 12, fmt.Sprintf("JEU N° %d · article %s du règlement", row.Game, article))
	y := 36
	for _, l := range wrap(fs.title, name, Width-2*margin) {
		text(img, fs.title, color.White, margin, y, l)
		y += lineHeight(fs.title)
	}
	y = max(y, 96) + 16
	for _, z := range zones(play) {
		y = drawZone(img, fs, z, y) + 14
	}
	id := ""
	if tc, err := codes.ParseTicket(row.TicketCode); err == nil {
		id = fmt.Sprintf("bloc %d · ", tc.ID().Block)
	}
	text(img, fs.small, soft, margin, y, fmt.Sprintf("%spaquet %d · ticket %d sur 8 · zones grattées", id, row.Pack, row.Position))
	y += lineHeight(fs.small) + margin
	frame(img, image.Rect(0, 0, Width, y), 3, band)
	return crop(img, y), nil
}

// drawZone draws one scratched zone from y and returns where it ends.
func drawZone(img *image.RGBA, fs *faces, z zone, y int) int {
	inner := Width - 2*margin - 28
	if z.label != "" {
		for _, l := range wrap(fs.label, z.label, Width-2*margin) {
			text(img, fs.label, ink, margin, y, l)
			y += lineHeight(fs.label)
		}
		y += 4
	}
	top := y
	y += 14
	x0 := margin + 14
	if len(z.items) == 0 {
		for _, l := range wrap(fs.body, z.content, inner) {
			text(img, fs.body, ink, x0, y, l)
			y += lineHeight(fs.body)
		}
	} else {
		x := x0
		rowH := 40
		for _, it := range z.items {
			w := 36 + measure(fs.body, it) + 18
			if x > x0 && x+w > x0+inner {
				x, y = x0, y+rowH
			}
			drawSymbol(img, fs, it, x, y)
			x += w
		}
		y += rowH - 6
	}
	y += 12
	// The scratched layer's remains around the zone.
	frame(img, image.Rect(margin, top, Width-margin, y), 6, latex)
	frame(img, image.Rect(margin+6, top+6, Width-margin-6, y-6), 2, scrEdg)
	return y
}

// drawSymbol draws a symbol as a labelled icon: a disc in the symbol's colour with its
// initial, and its name (with its amount, when it has one).
func drawSymbol(img *image.RGBA, fs *faces, s string, x, y int) {
	c := hue(strings.Fields(s + " ?")[0])
	disc(img, x+15, y+14, 15, c)
	initial := "?"
	if r := []rune(strings.ToUpper(s)); len(r) > 0 {
		initial = string(r[0])
	}
	iw := measure(fs.label, initial)
	text(img, fs.label, color.White, x+15-iw/2, y+3, initial)
	text(img, fs.body, ink, x+36, y+2, s)
}

// crop copies the top h rows of img.
func crop(img *image.RGBA, h int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), min(h, img.Bounds().Dy())))
	draw.Draw(out, out.Bounds(), img, image.Point{}, draw.Src)
	return out
}

func gameParse(r block.Row) (game.Play, error) { return game.ParsePlay(int(r.Game), r.Play) }
