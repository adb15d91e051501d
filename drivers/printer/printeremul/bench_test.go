package printeremul

import (
	"io"
	"testing"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/internal/golden"
)

func benchStream(b *testing.B) []byte {
	data, err := printer.Render(printer.TestPage(printer.Layout{Columns: 48}, true, golden.TestPageWords()), printer.Layout{Columns: 48})
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkInterpret measures ESC/POS bytes → emulated paper (the technician test page).
func BenchmarkInterpret(b *testing.B) {
	data := benchStream(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		p := New(Config{Columns: 48, Logger: discard})
		p.Write(data)
		if len(p.Receipts()) != 1 {
			b.Fatal("no receipt")
		}
	}
}

// BenchmarkRenderText measures emulated paper → text (the golden-file form).
func BenchmarkRenderText(b *testing.B) {
	p := New(Config{Columns: 48, Logger: discard})
	p.Write(benchStream(b))
	r := p.Receipts()[0]
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Text()
	}
}

// BenchmarkRenderPNG measures emulated paper → PNG (barcodes drawn with gozxing).
func BenchmarkRenderPNG(b *testing.B) {
	p := New(Config{Columns: 48, Logger: discard})
	p.Write(benchStream(b))
	r := p.Receipts()[0]
	b.ReportAllocs()
	for b.Loop() {
		if err := r.WritePNG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
