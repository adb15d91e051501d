package escpos

import (
	"bytes"
	"testing"
)

// BenchmarkParse measures the command parser on a 4 KiB text-and-codes stream.
func BenchmarkParse(b *testing.B) {
	var w Builder
	w.Init().CodePage(CodePagePC858)
	for range 40 {
		w.Align(AlignLeft).Bold(true).Text(bytes.Repeat([]byte("x"), 40)).LF().Bold(false)
	}
	w.Code128([]byte("{B0123456789")).QR([]byte("payload"), 4, 'M').FeedCut(3)
	data, _ := w.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, n := Parse(data); n != len(data) {
			b.Fatal("short parse")
		}
	}
}
