package printer

import "strings"

// TestPageWords are the words of the test page, in the caller's language: a driver holds
// none (device/locale has them).
type TestPageWords struct {
	Title, Printer, Styles                    string
	Bold, Underline, Reverse                  string
	DoubleWidth, DoubleHeight, Right          string
	Accents, Capitals                         string
	Euro, EuroAmount, Total, TotalAmount, End string
}

// TestPage is the technician's test page: every style, the accented letters and the euro sign
// of the code page, a ruler of the column count, both barcodes and a QR code, and a drawer kick
// when drawer is true.
func TestPage(l Layout, drawer bool, w TestPageWords) Receipt {
	l, _ = l.withDefaults()
	ruler := strings.Repeat("1234567890", l.Columns/10+1)[:l.Columns]
	return Receipt{
		ID: "test-page",
		Items: []Item{
			Text{Text: w.Title, Style: Style{Align: Center, Bold: true, DoubleWidth: true, DoubleHeight: true}},
			Text{Text: w.Printer, Style: Style{Align: Center}},
			Rule{Char: '='},
			Text{Text: ruler},
			Text{Text: w.Styles},
			Text{Text: w.Bold, Style: Style{Bold: true}},
			Text{Text: w.Underline, Style: Style{Underline: true}},
			Text{Text: w.Reverse, Style: Style{Reverse: true}},
			Text{Text: w.DoubleWidth, Style: Style{DoubleWidth: true}},
			Text{Text: w.DoubleHeight, Style: Style{DoubleHeight: true}},
			Text{Text: w.Right, Style: Style{Align: Right}},
			Rule{},
			Text{Text: w.Accents},
			Text{Text: w.Capitals},
			Pair{Left: w.Euro, Right: w.EuroAmount},
			Pair{Left: w.Total, Right: w.TotalAmount, Style: Style{Bold: true}},
			Rule{},
			Text{Text: "Code 128", Style: Style{Align: Center}},
			Barcode{Symbology: Code128, Data: "PACK-0042-7"},
			Text{Text: "ITF", Style: Style{Align: Center}},
			Barcode{Symbology: ITF, Data: "0123456789"},
			Text{Text: "QR", Style: Style{Align: Center}},
			QR{Data: "https://example.invalid/test?n=42", Module: 5},
			Feed{Lines: 1},
			Text{Text: w.End, Style: Style{Align: Center}},
		},
		OpenDrawer: drawer,
	}
}
