package display

import (
	"fmt"
	"strings"
)

// Glyph is a 5×8 character bitmap for CGRAM: one byte per row, top first, the 5 low bits
// are the dots (bit 4 leftmost). Row 7 is where the underline cursor is drawn.
type Glyph [8]byte

// glyphArt draws the built-in glyphs, in allocation priority order (€ first: an amount
// must never lose its currency sign to an accent): 8 rows of 5 dots, '#' lit, '.' dark.
// Capitals are squeezed into rows 2–6 to make room for the accent.
var glyphArt = []struct {
	r   rune
	art string
}{
	{'€', "..### .#... ####. .#... ####. .#... ..### ....."},
	{'É', "...#. ..#.. ##### #.... ####. #.... ##### ....."},
	{'È', ".#... ..#.. ##### #.... ####. #.... ##### ....."},
	{'Ê', "..#.. .#.#. ##### #.... ####. #.... ##### ....."},
	{'À', ".#... ..#.. .###. #...# ##### #...# #...# ....."},
	{'Ç', ".###. #...# #.... #.... #...# .###. ..#.. .##.."},
	{'Ù', ".#... ..#.. #...# #...# #...# #...# .###. ....."},
	{'Â', "..#.. .#.#. .###. #...# ##### #...# #...# ....."},
	{'Î', "..#.. .#.#. .###. ..#.. ..#.. ..#.. .###. ....."},
	{'Ô', "..#.. .#.#. .###. #...# #...# #...# .###. ....."},
	{'Û', "..#.. .#.#. #...# #...# #...# #...# .###. ....."},
	{'Ë', ".#.#. ..... ##### #.... ####. #.... ##### ....."},
	{'Ï', ".#.#. ..... .###. ..#.. ..#.. ..#.. .###. ....."},
	{'é', "...#. ..#.. .###. #...# ##### #.... .###. ....."},
	{'è', ".#... ..#.. .###. #...# ##### #.... .###. ....."},
	{'ê', "..#.. .#.#. .###. #...# ##### #.... .###. ....."},
	{'à', ".#... ..#.. .###. ....# .#### #...# .#### ....."},
	{'ç', "..... .###. #.... #.... #...# .###. ..#.. .##.."},
	{'ù', ".#... ..#.. #...# #...# #...# #..## .##.# ....."},
	{'â', "..#.. .#.#. .###. ....# .#### #...# .#### ....."},
	{'î', "..#.. .#.#. ..... .##.. ..#.. ..#.. .###. ....."},
	{'ô', "..#.. .#.#. ..... .###. #...# #...# .###. ....."},
	{'û', "..#.. .#.#. #...# #...# #...# #..## .##.# ....."},
	{'ë', ".#.#. ..... .###. #...# ##### #.... .###. ....."},
	{'ï', ".#.#. ..... .##.. ..#.. ..#.. ..#.. .###. ....."},
}

// defaultFont and priority are built from glyphArt.
var (
	defaultFont = map[rune]Glyph{}
	priority    = map[rune]int{}
)

func init() {
	for i, g := range glyphArt {
		defaultFont[g.r] = mustParseGlyph(g.art)
		priority[g.r] = i
	}
}

// ParseGlyph reads 8 rows of 5 dots, top row first, '#' lit and '.' dark; spaces and
// newlines between rows are ignored.
func ParseGlyph(art string) (Glyph, error) {
	var g Glyph
	art = strings.Join(strings.Fields(art), "")
	if len(art) != 40 {
		return g, fmt.Errorf("display: glyph art has %d dots, want 40 (8 rows of 5)", len(art))
	}
	for i := range 40 {
		switch art[i] {
		case '#':
			g[i/5] |= 1 << (4 - i%5)
		case '.':
		default:
			return g, fmt.Errorf("display: glyph art: %q at %d is neither '#' nor '.'", art[i], i)
		}
	}
	return g, nil
}

func mustParseGlyph(art string) Glyph {
	g, err := ParseGlyph(art)
	if err != nil {
		panic(err)
	}
	return g
}

// DefaultFont returns a copy of the built-in custom glyphs: €, and the accented letters of
// French that the A00 ROM lacks (É È Ê Ë À Â Ç Ù Û Î Ï Ô and their lower-case forms).
func DefaultFont() map[rune]Glyph {
	out := make(map[rune]Glyph, len(defaultFont))
	for r, g := range defaultFont {
		out[r] = g
	}
	return out
}
