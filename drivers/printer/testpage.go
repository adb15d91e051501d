package printer

import "strings"

// TestPage is the technician's test page: every style, the accented letters and the euro sign
// of the code page, a ruler of the column count, both barcodes and a QR code, and a drawer kick
// when drawer is true.
func TestPage(l Layout, drawer bool) Receipt {
	l, _ = l.withDefaults()
	ruler := strings.Repeat("1234567890", l.Columns/10+1)[:l.Columns]
	return Receipt{
		ID: "test-page",
		Items: []Item{
			Text{Text: "PAGE DE TEST", Style: Style{Align: Center, Bold: true, DoubleWidth: true, DoubleHeight: true}},
			Text{Text: "Imprimante ticket ESC/POS", Style: Style{Align: Center}},
			Rule{Char: '='},
			Text{Text: ruler},
			Text{Text: "Normal, gras, souligné, inversé :"},
			Text{Text: "Gras", Style: Style{Bold: true}},
			Text{Text: "Souligné", Style: Style{Underline: true}},
			Text{Text: " Inversé ", Style: Style{Reverse: true}},
			Text{Text: "Double largeur", Style: Style{DoubleWidth: true}},
			Text{Text: "Double hauteur", Style: Style{DoubleHeight: true}},
			Text{Text: "À droite", Style: Style{Align: Right}},
			Rule{},
			Text{Text: "Accents : à â ç é è ê ë î ï ô ù û ü ÿ « »"},
			Text{Text: "Capitales : À Â Ç É È Ê Ë Î Ï Ô Ù Û Ü"},
			Pair{Left: "Euro", Right: "10,00 €"},
			Pair{Left: "Total", Right: "1 234,50 €", Style: Style{Bold: true}},
			Rule{},
			Text{Text: "Code 128", Style: Style{Align: Center}},
			Barcode{Symbology: Code128, Data: "PACK-0042-7"},
			Text{Text: "ITF", Style: Style{Align: Center}},
			Barcode{Symbology: ITF, Data: "0123456789"},
			Text{Text: "QR", Style: Style{Align: Center}},
			QR{Data: "https://example.invalid/test?n=42", Module: 5},
			Feed{Lines: 1},
			Text{Text: "Fin de la page de test", Style: Style{Align: Center}},
		},
		OpenDrawer: drawer,
	}
}
