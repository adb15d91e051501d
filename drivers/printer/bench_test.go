package printer

import "testing"

func benchReceipt() Receipt {
	items := []Item{
		Text{Text: "PACK TERMINAL", Style: Style{Align: Center, Bold: true, DoubleWidth: true}},
		Text{Text: "Tabac de la Gare — 12 rue Émile Zola, 69003 Lyon", Style: Style{Align: Center}},
		Rule{},
	}
	for range 8 {
		items = append(items, Pair{Left: "Jeu n° 5 — gain", Right: "1 000,00 €"})
	}
	items = append(items,
		Pair{Left: "TOTAL", Right: "8 000,00 €", Style: Style{Bold: true, DoubleHeight: true}},
		Text{Text: "Conservez ce reçu : il n'est ni échangé ni remboursé. Merci et à bientôt !"},
		Barcode{Symbology: Code128, Data: "0001234567890042"},
		Barcode{Symbology: ITF, Data: "12345678901231"},
		QR{Data: "PK1-0042-0007-ABCDEF0123456789"},
	)
	return Receipt{ID: "bench", Items: items, OpenDrawer: true}
}

// BenchmarkRender measures receipt model → ESC/POS bytes (a 20-line payout receipt).
func BenchmarkRender(b *testing.B) {
	r := benchReceipt()
	b.ReportAllocs()
	var n int
	for b.Loop() {
		out, err := Render(r, Layout{Columns: 48})
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.SetBytes(int64(n))
}

// BenchmarkRenderRasterQR measures the same receipt for a printer without GS ( k: the QR
// code drawn with gozxing's writer and sent as a GS v 0 raster image (58 mm profile).
func BenchmarkRenderRasterQR(b *testing.B) {
	r := benchReceipt()
	p, err := ProfileByName("58mm-generic")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		out, err := Render(r, p.Layout())
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.SetBytes(int64(n))
}
