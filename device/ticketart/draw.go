package ticketart

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Width is the width of both faces of a ticket, in pixels (about 54 mm at 300 dpi).
const Width = 640

const margin = 24

var (
	ink    = color.RGBA{0x20, 0x20, 0x28, 0xff}
	paper  = color.RGBA{0xfc, 0xfa, 0xf2, 0xff}
	latex  = color.RGBA{0xb4, 0xb6, 0xbe, 0xff} // the scratch layer's silver, at a zone's edge
	soft   = color.RGBA{0x66, 0x66, 0x70, 0xff}
	scrEdg = color.RGBA{0xe6, 0xe2, 0xd4, 0xff}
)

// faces are the Go fonts at the sizes used (they have the French letters, €, «, —, ·, œ).
type faces struct{ title, label, body, small font.Face }

var loadFaces = sync.OnceValues(func() (*faces, error) {
	reg, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, err
	}
	face := func(f *opentype.Font, size float64) (font.Face, error) {
		return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	}
	var fs faces
	for _, x := range []struct {
		dst  *font.Face
		f    *opentype.Font
		size float64
	}{{&fs.title, bold, 28}, {&fs.label, bold, 17}, {&fs.body, reg, 21}, {&fs.small, reg, 15}} {
		if *x.dst, err = face(x.f, x.size); err != nil {
			return nil, err
		}
	}
	return &fs, nil
})

func getFaces() (*faces, error) {
	fs, err := loadFaces()
	if err != nil {
		return nil, fmt.Errorf("ticketart: fonts: %w", err)
	}
	return fs, nil
}

// lineHeight is a face's line advance in pixels.
func lineHeight(f font.Face) int { return f.Metrics().Height.Ceil() + 2 }

// text draws s with its top-left corner at (x, y) and returns its width.
func text(dst draw.Image, f font.Face, c color.Color, x, y int, s string) int {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y+f.Metrics().Ascent.Ceil())}
	d.DrawString(s)
	return (d.Dot.X - fixed.I(x)).Ceil()
}

func measure(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }

// wrap cuts s into lines no wider than w.
func wrap(f font.Face, s string, w int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if cur != "" && measure(f, try) > w {
			lines = append(lines, cur)
			cur = word
			continue
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func fill(dst draw.Image, r image.Rectangle, c color.Color) {
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// frame draws a border of width t inside r.
func frame(dst draw.Image, r image.Rectangle, t int, c color.Color) {
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), c)
	fill(dst, image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), c)
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), c)
	fill(dst, image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// disc draws a filled circle of radius rad centred on (cx, cy).
func disc(dst draw.Image, cx, cy, rad int, c color.Color) {
	for y := -rad; y <= rad; y++ {
		for x := -rad; x <= rad; x++ {
			if x*x+y*y <= rad*rad {
				dst.Set(cx+x, cy+y, c)
			}
		}
	}
}

// hue gives each symbol word its own colour, the same on every ticket.
func hue(s string) color.RGBA {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	palette := []color.RGBA{{0xd9, 0x4f, 0x4f, 0xff}, {0x3f, 0x7f, 0xd0, 0xff}, {0x3a, 0xa0, 0x5a, 0xff}, {0xd0, 0x8a, 0x2a, 0xff},
		{0x8a, 0x4f, 0xc0, 0xff}, {0x2a, 0xa0, 0xa8, 0xff}, {0xc0, 0x4f, 0x94, 0xff}, {0x6a, 0x6a, 0x2a, 0xff}}
	return palette[h%uint32(len(palette))]
}

// gameColor is the header band's colour of game n.
func gameColor(n int) color.RGBA {
	bands := []color.RGBA{{0x7a, 0x1f, 0x3d, 0xff}, {0x1f, 0x5f, 0x8a, 0xff}, {0xc0, 0x7a, 0x1a, 0xff}, {0xa0, 0x2a, 0x6a, 0xff},
		{0x30, 0x30, 0x30, 0xff}, {0x1a, 0x1a, 0x4a, 0xff}, {0x5a, 0x1a, 0x6a, 0xff}, {0x0a, 0x5a, 0x6a, 0xff}}
	return bands[(n+7)%8]
}
