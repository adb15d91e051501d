package printer

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/packterm/pos/drivers/printer/escpos"
)

// Align is the horizontal alignment of a line.
type Align byte

// Alignments (ESC a n).
const (
	Left   Align = escpos.AlignLeft
	Center Align = escpos.AlignCenter
	Right  Align = escpos.AlignRight
)

// Style is the look of a text item.
type Style struct {
	Align        Align
	Bold         bool
	Underline    bool
	Reverse      bool // white on black
	DoubleWidth  bool
	DoubleHeight bool
}

// Item is one element of a receipt: Text, Pair, Rule, Barcode, QR or Feed.
type Item interface{ item() }

// Text is a paragraph, wrapped at word boundaries to the paper width (halved when
// DoubleWidth); "\n" forces a new line.
type Text struct {
	Text  string
	Style Style
}

// Pair is one line with Left flush left and Right flush right (e.g. a label and an amount);
// when both do not fit, Right goes on its own line.
type Pair struct {
	Left, Right string
	Style       Style // Align is ignored
}

// Rule is a line of Char across the paper (default '-').
type Rule struct{ Char rune }

// Symbology of a linear barcode.
type Symbology int

// Linear barcodes the printer draws itself (GS k).
const (
	Code128 Symbology = iota
	ITF
)

func (s Symbology) String() string {
	if s == ITF {
		return "ITF"
	}
	return "Code128"
}

// Barcode is a linear barcode, centred. Code 128 takes printable ASCII; ITF an even count of
// digits. Height is in dots (0: 80), Module the narrow bar width 2..6 dots (0: 2).
type Barcode struct {
	Symbology Symbology
	Data      string
	Height    int
	Module    int
	HideText  bool // no human-readable line under the bars
}

// QR is a model 2 QR code, centred. Module is the dot size of one module (0: 6), ECC one of
// 'L', 'M', 'Q', 'H' (0: 'M').
type QR struct {
	Data   string
	Module int
	ECC    byte
}

// Feed advances the paper by Lines blank lines.
type Feed struct{ Lines int }

func (Text) item()    {}
func (Pair) item()    {}
func (Rule) item()    {}
func (Barcode) item() {}
func (QR) item()      {}
func (Feed) item()    {}

// Receipt is what the printer prints between two cuts.
type Receipt struct {
	// ID names the receipt in the spool and in logs (e.g. a journal sequence); not printed.
	ID    string
	Items []Item
	// OpenDrawer kicks the cash drawer after the cut.
	OpenDrawer bool
}

// wrap splits s into lines of at most cols runes, at spaces when it can.
func wrap(s string, cols int) []string {
	if cols < 1 {
		cols = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			out = append(out, "")
			continue
		}
		line := ""
		for _, w := range words {
			for utf8.RuneCountInString(w) > cols { // hard-split a word longer than a line
				if line != "" {
					out = append(out, line)
					line = ""
				}
				r := []rune(w)
				out = append(out, string(r[:cols]))
				w = string(r[cols:])
			}
			switch {
			case line == "":
				line = w
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= cols:
				line += " " + w
			default:
				out = append(out, line)
				line = w
			}
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

func (r Receipt) validate() error {
	for i, it := range r.Items {
		switch v := it.(type) {
		case Barcode:
			if v.Data == "" {
				return fmt.Errorf("printer: item %d: empty barcode", i)
			}
		case QR:
			if v.Data == "" {
				return fmt.Errorf("printer: item %d: empty QR code", i)
			}
		case nil:
			return fmt.Errorf("printer: item %d: nil", i)
		}
	}
	return nil
}
