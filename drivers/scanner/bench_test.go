package scanner

import (
	"bytes"
	"os"
	"path/filepath"
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

// BenchmarkEvdevDecode measures input_event bytes → typed text → framed lines for a recorded
// AZERTY session (Shift, AltGr, dead keys; 618 events), reported as events per second.
func BenchmarkEvdevDecode(b *testing.B) {
	rec, err := os.ReadFile(filepath.Join("testdata", "evdev", "fr-codes.ev64"))
	if err != nil {
		b.Fatal(err)
	}
	n := len(rec) / EventSize(8)
	var evs []InputEvent
	var text []byte
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	for b.Loop() {
		dec, _ := NewEventDecoder(8)
		keys := NewKeyDecoder(KeymapFR)
		evs = dec.Feed(evs[:0], rec)
		text = keys.Feed(text[:0], evs)
		if len(NewFramer(CR, 512).Feed(text)) != 5 {
			b.Fatal("lines lost")
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
