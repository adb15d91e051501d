package hd44780emul

import (
	"testing"

	"github.com/jonboulle/clockwork"
)

func TestROMGlyph(t *testing.T) {
	want := ".###.\n#...#\n#...#\n#...#\n#####\n#...#\n#...#\n....."
	if got := GlyphArt(ROMGlyph('A')); got != want {
		t.Errorf("A:\n%s\nwant\n%s", got, want)
	}
	if got := ROMGlyph(' '); got != [8]byte{} {
		t.Errorf("space lit: %v", got)
	}
	if got := ROMGlyph(0xB1); got[0] != 0x1F || got[7] != 0 {
		t.Errorf("code missing from the table not a block: %v", got)
	}
	seen := map[[8]byte]byte{}
	for c := byte(0x21); c < 0x80; c++ {
		g := ROMGlyph(c)
		if p, dup := seen[g]; dup {
			t.Errorf("%#x draws as %#x", c, p)
		}
		seen[g] = c
	}
}

func TestCodesFreshPanel(t *testing.T) {
	d, err := New(16, 2, clockwork.NewFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	codes := d.Codes()
	if len(codes) != 2 || len(codes[0]) != 16 || codes[1][15] != ' ' {
		t.Fatalf("codes %v", codes)
	}
	if d.Lit() {
		t.Error("a panel not yet initialised is lit")
	}
}
