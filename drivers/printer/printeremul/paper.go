package printeremul

import (
	"fmt"
	"image"
	"strings"

	"github.com/packterm/pos/drivers/printer/escpos"
)

// Style is the character style of a text segment.
type Style struct {
	Bold, Reverse bool
	Underline     int // 0, 1 or 2 dots
	Width, Height int // multipliers 1..8
	FontB         bool
}

func (s Style) marks() []string {
	var m []string
	if s.Bold {
		m = append(m, "B")
	}
	if s.Underline > 0 {
		m = append(m, "U")
	}
	if s.Reverse {
		m = append(m, "R")
	}
	if s.Width > 1 {
		m = append(m, fmt.Sprintf("%dW", s.Width))
	}
	if s.Height > 1 {
		m = append(m, fmt.Sprintf("%dH", s.Height))
	}
	if s.FontB {
		m = append(m, "FB")
	}
	return m
}

// Segment is a run of text in one style.
type Segment struct {
	Text  string
	Style Style
}

// LineKind tells what a Line holds.
type LineKind int

// Kinds of printed lines.
const (
	TextLine LineKind = iota
	BarcodeLine
	QRLine
	ImageLine
	FeedLine
	NVImageLine
)

// Line is one printed line (or block: a barcode, a QR code, an image).
type Line struct {
	Kind     LineKind
	Align    int
	Segments []Segment // TextLine
	Columns  int       // character columns of the print area when printed

	Symbology string // BarcodeLine: "Code128", "ITF", …; QRLine and an ImageLine holding a QR code: "QR"
	Data      string // decoded payload
	HRI       int    // BarcodeLine: 0 none, 1 above, 2 below, 3 both
	Module    int    // bar or QR module width in dots
	Height    int    // BarcodeLine bar height, FeedLine dots, ImageLine rows
	ECC       byte   // QRLine: L, M, Q or H

	Image *image.Gray // ImageLine, black dots = 0
	Dots  int         // print area width in dots
}

// Pulse is a cash drawer kick.
type Pulse struct {
	Pin5 bool
	OnMs int
}

// Receipt is the paper between two cuts.
type Receipt struct {
	Lines       []Line
	Cut         string // "full", "partial", "torn" (TearOff), or "" when not cut
	Interrupted bool   // stopped by a fault and cleared by the host (torn off, not a receipt)
	Drawer      []Pulse
	Unknown     []escpos.Command
}

func (r Receipt) empty() bool {
	return len(r.Lines) == 0 && len(r.Drawer) == 0 && len(r.Unknown) == 0
}

// printsNothing: nothing printed on the paper (feeds and spaces only) and no drawer kick.
// Unknown sequences may have come: they print nothing either (node-thermal-printer ends its
// stream with GS w 0 and a stray 0x01 after the cut). Several encoders send LF after GS V;
// paper that printsNothing after the last cut is the top of the next receipt, never a
// receipt of its own; its unknown sequences stay in Printer.Unknown.
func (r Receipt) printsNothing() bool {
	if len(r.Drawer) > 0 {
		return false
	}
	for _, l := range r.Lines {
		switch l.Kind {
		case FeedLine:
		case TextLine:
			for _, s := range l.Segments {
				if strings.TrimSpace(s.Text) != "" || s.Style.Reverse || s.Style.Underline > 0 {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// PlainText is the text of the receipt's text lines, one per line, trimmed (for assertions).
func (r Receipt) PlainText() string {
	var b strings.Builder
	for _, l := range r.Lines {
		switch l.Kind {
		case TextLine:
			for _, s := range l.Segments {
				b.WriteString(s.Text)
			}
			b.WriteByte('\n')
		case BarcodeLine, QRLine:
			fmt.Fprintf(&b, "[%s %s]\n", l.Symbology, l.Data)
		case ImageLine:
			if l.Symbology != "" {
				fmt.Fprintf(&b, "[%s %s]\n", l.Symbology, l.Data)
			}
		}
	}
	return b.String()
}

// Text renders the receipt for a person and for golden files: the print area between bars,
// double-width characters spread over two columns, styles listed after the line.
func (r Receipt) Text() string {
	var b strings.Builder
	cols := 0
	for _, l := range r.Lines {
		cols = max(cols, l.Columns)
	}
	if cols == 0 {
		cols = 48
	}
	frame := "+" + strings.Repeat("-", cols) + "+\n"
	b.WriteString(frame)
	for _, l := range r.Lines {
		var body string
		var marks []string
		switch l.Kind {
		case TextLine:
			var sb strings.Builder
			seen := map[string]bool{}
			for _, s := range l.Segments {
				for _, c := range s.Text {
					sb.WriteRune(c)
					for range s.Style.Width - 1 {
						sb.WriteByte(' ')
					}
				}
				for _, m := range s.Style.marks() {
					if !seen[m] {
						seen[m] = true
						marks = append(marks, m)
					}
				}
			}
			body = sb.String()
		case BarcodeLine:
			body = fmt.Sprintf("[%s %q]", l.Symbology, l.Data)
		case QRLine:
			body = fmt.Sprintf("[QR %c %q]", l.ECC, l.Data)
		case ImageLine:
			body = fmt.Sprintf("[IMAGE %dx%d]", l.Image.Rect.Dx(), l.Image.Rect.Dy())
			if l.Symbology != "" {
				body = fmt.Sprintf("[%s image %q]", l.Symbology, l.Data)
			}
		case FeedLine:
			body = ""
		case NVImageLine:
			body = fmt.Sprintf("[NV IMAGE %s]", l.Data)
		}
		w := len([]rune(body))
		pad := 0
		switch l.Align {
		case escpos.AlignCenter:
			pad = max(cols-w, 0) / 2
		case escpos.AlignRight:
			pad = max(cols-w, 0)
		}
		line := strings.Repeat(" ", pad) + body
		if n := len([]rune(line)); n < cols {
			line += strings.Repeat(" ", cols-n)
		}
		b.WriteString("|" + line + "|")
		if len(marks) > 0 {
			b.WriteString(" " + strings.Join(marks, " "))
		}
		b.WriteByte('\n')
	}
	b.WriteString(frame)
	for _, p := range r.Drawer {
		pin := 2
		if p.Pin5 {
			pin = 5
		}
		fmt.Fprintf(&b, "drawer pulse pin %d, %d ms\n", pin, p.OnMs)
	}
	switch {
	case r.Interrupted:
		b.WriteString("interrupted: printing stopped by a fault, buffers cleared\n")
	case r.Cut != "":
		fmt.Fprintf(&b, "cut: %s\n", r.Cut)
	default:
		b.WriteString("not cut\n")
	}
	for _, u := range r.Unknown {
		fmt.Fprintf(&b, "unknown sequence: % X (%s)\n", u.Raw, u.Reason)
	}
	return b.String()
}
