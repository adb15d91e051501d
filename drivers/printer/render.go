package printer

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/packterm/pos/drivers/printer/escpos"
)

// CodePage is the character table the driver selects with ESC t.
type CodePage byte

// Supported code pages.
const (
	PC858   CodePage = escpos.CodePagePC858
	WPC1252 CodePage = escpos.CodePageWPC1252
)

// Charmap returns the x/text table of a code page number (also used by the emulator), or nil.
func Charmap(n byte) *charmap.Charmap {
	switch n {
	case escpos.CodePagePC437:
		return charmap.CodePage437
	case escpos.CodePagePC850:
		return charmap.CodePage850
	case escpos.CodePageWPC1252:
		return charmap.Windows1252
	case escpos.CodePagePC858:
		return charmap.CodePage858
	}
	return nil
}

// Layout is the paper and character setup (Profile.Layout gives a model's).
type Layout struct {
	// Columns of font A per line: 42 (512-dot print area, the TM-T88 default on 80 mm paper),
	// 48 (576 dots) or 32 (384 dots, 58 mm paper).
	Columns int
	// CodePage for text; zero value means PC858.
	CodePage CodePage
	// Cut ends each receipt: partial (zero value), full, or none (feed to the tear bar).
	Cut Cut
	// RasterQR draws QR codes as GS v 0 raster images instead of GS ( k, for printers that
	// cannot draw them.
	RasterQR bool
}

// tearFeed is the feed after a receipt on a printer without cutter: the print head sits
// about 15 mm below the tear bar on common 58 mm mechanisms, six lines of 4.23 mm clear it.
const tearFeed = 6

// DotsPerColumn is the width of a font A character cell (12×24 dots).
const DotsPerColumn = 12

func (l Layout) withDefaults() (Layout, error) {
	if l.Columns == 0 {
		l.Columns = 48
	}
	if l.Columns != 32 && l.Columns != 42 && l.Columns != 48 {
		return l, fmt.Errorf("printer: layout: %d columns (32, 42 or 48)", l.Columns)
	}
	if l.Cut < CutPartial || l.Cut > CutNone {
		return l, fmt.Errorf("printer: layout: cut %d", l.Cut)
	}
	if l.CodePage == 0 {
		l.CodePage = PC858
	}
	if l.CodePage != PC858 && l.CodePage != WPC1252 {
		return l, fmt.Errorf("printer: layout: code page %d (19 PC858 or 16 WPC1252)", l.CodePage)
	}
	return l, nil
}

var asciiFallback = strings.NewReplacer("œ", "oe", "Œ", "OE", "’", "'", "‘", "'", "“", "\"", "”", "\"",
	"–", "-", "—", "-", "…", "...", "\u00a0", " ", "\u202f", " ")

// encode converts s to the code page, replacing what it cannot hold.
func encode(s string, cp CodePage) []byte {
	cm := Charmap(byte(cp))
	s = asciiFallback.Replace(s)
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r < 0x20 || r == 0x7F {
			out = append(out, '?')
			continue
		}
		b, ok := cm.EncodeRune(r)
		if !ok {
			b = '?'
		}
		out = append(out, b)
	}
	return out
}

// Render turns a receipt into the ESC/POS stream that prints it: init, code page, print area,
// the items, feed and cut (as the layout's cutter can), then the drawer pulse if asked.
func Render(r Receipt, l Layout) ([]byte, error) {
	l, err := l.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	var w escpos.Builder
	w.Init().CodePage(byte(l.CodePage)).LeftMargin(0).PrintWidth(l.Columns * DotsPerColumn)
	for i, it := range r.Items {
		if err := renderItem(&w, it, l); err != nil {
			return nil, fmt.Errorf("printer: item %d: %w", i, err)
		}
	}
	// The kick follows the cut: a receipt stopped by paper end before its cut never opens the
	// drawer, so the reprint opens it exactly once.
	switch l.Cut {
	case CutFull:
		w.FeedFullCut(3)
	case CutNone:
		w.FeedLines(tearFeed)
	default:
		w.FeedCut(3)
	}
	if r.OpenDrawer {
		w.Drawer(false, 50, 500)
	}
	return w.Bytes()
}

func setStyle(w *escpos.Builder, s Style) {
	w.Align(byte(s.Align)).Bold(s.Bold)
	if s.Underline {
		w.Underline(1)
	}
	if s.Reverse {
		w.Reverse(true)
	}
	if s.DoubleWidth || s.DoubleHeight {
		wm, hm := 1, 1
		if s.DoubleWidth {
			wm = 2
		}
		if s.DoubleHeight {
			hm = 2
		}
		w.Size(wm, hm)
	}
}

func resetStyle(w *escpos.Builder, s Style) {
	if s.Bold {
		w.Bold(false)
	}
	if s.Underline {
		w.Underline(0)
	}
	if s.Reverse {
		w.Reverse(false)
	}
	if s.DoubleWidth || s.DoubleHeight {
		w.Size(1, 1)
	}
	if s.Align != Left {
		w.Align(escpos.AlignLeft)
	}
}

func cols(l Layout, s Style) int {
	if s.DoubleWidth {
		return l.Columns / 2
	}
	return l.Columns
}

func renderItem(w *escpos.Builder, it Item, l Layout) error {
	switch v := it.(type) {
	case Text:
		setStyle(w, v.Style)
		for _, line := range wrap(v.Text, cols(l, v.Style)) {
			w.Text(encode(line, l.CodePage)).LF()
		}
		resetStyle(w, v.Style)
	case Pair:
		s := v.Style
		s.Align = Left
		n := cols(l, s)
		left, right := []rune(v.Left), []rune(v.Right)
		setStyle(w, s)
		if len(left)+1+len(right) <= n {
			line := string(left) + strings.Repeat(" ", n-len(left)-len(right)) + string(right)
			w.Text(encode(line, l.CodePage)).LF()
		} else {
			for _, line := range wrap(v.Left, n) {
				w.Text(encode(line, l.CodePage)).LF()
			}
			pad := max(n-len(right), 0)
			for _, line := range wrap(strings.Repeat(" ", pad)+v.Right, n) {
				w.Text(encode(strings.Repeat(" ", max(n-utf8.RuneCountInString(line), 0))+line, l.CodePage)).LF()
			}
		}
		resetStyle(w, s)
	case Rule:
		c := v.Char
		if c == 0 {
			c = '-'
		}
		w.Text(encode(strings.Repeat(string(c), l.Columns), l.CodePage)).LF()
	case Feed:
		if v.Lines < 0 || v.Lines > 255 {
			return fmt.Errorf("feed of %d lines", v.Lines)
		}
		if v.Lines > 0 {
			w.FeedLines(byte(v.Lines))
		}
	case Barcode:
		h, m := v.Height, v.Module
		if h == 0 {
			h = 80
		}
		if m == 0 {
			m = 2
		}
		switch v.Symbology {
		case Code128:
			data, err := code128Data(v.Data)
			if err != nil {
				return err
			}
			w.Align(escpos.AlignCenter).BarcodeSetup(h, m, !v.HideText)
			w.Code128(data)
		case ITF:
			w.Align(escpos.AlignCenter).BarcodeSetup(h, m, !v.HideText)
			w.ITF(v.Data)
		default:
			return fmt.Errorf("barcode symbology %d", v.Symbology)
		}
		w.Align(escpos.AlignLeft) // GS k prints at once; no LF (it would feed a blank line)
	case QR:
		m, ecc := v.Module, v.ECC
		if m == 0 {
			m = 6
		}
		if ecc == 0 {
			ecc = 'M'
		}
		if l.RasterQR {
			if err := rasterQR(w, v.Data, m, ecc, l.Columns*DotsPerColumn); err != nil {
				return err
			}
			break
		}
		w.Align(escpos.AlignCenter).QR([]byte(v.Data), m, ecc).Align(escpos.AlignLeft)
	default:
		return fmt.Errorf("unknown item %T", it)
	}
	_, err := w.Bytes()
	return err
}

// code128Data is s as GS k 73 data: code set B, and set C (two digits a symbol) for the
// runs of digits where switching saves bars (a receipt id's journal number).
func code128Data(s string) ([]byte, error) {
	if s == "" {
		return nil, fmt.Errorf("empty Code 128 data")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7E {
			return nil, fmt.Errorf("Code 128 byte %#02x outside printable ASCII", c)
		}
	}
	var out []byte
	set := byte(0)
	for i := 0; i < len(s); {
		// Set C (two digits a symbol) for a run of digits that saves a symbol: 4 or more at
		// the start or the end, 6 or more in the middle, or the whole text; pairs only.
		n := digitRun(s[i:])
		n -= n % 2
		if !(n >= 6 || n >= 4 && (i == 0 || i+n == len(s)) || n > 0 && n == len(s)) {
			n = 0
		}
		if n > 0 {
			if set != 'C' {
				out, set = append(out, '{', 'C'), 'C'
			}
			for k := i; k < i+n; k += 2 {
				out = append(out, (s[k]-'0')*10+s[k+1]-'0')
			}
			i += n
			continue
		}
		if set != 'B' {
			out, set = append(out, '{', 'B'), 'B'
		}
		if s[i] == '{' {
			out = append(out, '{') // "{{" is a literal brace
		}
		out = append(out, s[i])
		i++
	}
	return out, nil
}

// digitRun is the count of digits s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
