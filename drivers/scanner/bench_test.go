package scanner

import (
	"bytes"
	"testing"
)

// BenchmarkFramer measures framing and AIM parsing of 100 scanned lines.
func BenchmarkFramer(b *testing.B) {
	data := bytes.Repeat([]byte("]C0PACK-0000042-0007\r\n"), 100)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f := NewFramer(CRLF, 512)
		for _, fr := range f.Feed(data) {
			if _, _, err := ParseLine(fr.Line, true); err != nil {
				b.Fatal(err)
			}
		}
	}
}
