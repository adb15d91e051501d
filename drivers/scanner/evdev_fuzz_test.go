package scanner

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzEvdevDecoder: any bytes as input events, either word size, either keymap, split
// anywhere: no panic, the same events and text whole or split, the text valid UTF-8, and
// the framer's good lines free of the bad-key marker.
func FuzzEvdevDecoder(f *testing.F) {
	for _, name := range []string{"fr-tab", "repeat"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "evdev", name+".ev64")); err == nil {
			f.Add(b[:min(len(b), 480)], 100, uint8(1))
		}
	}
	f.Add(AppendEvent(nil, 4, InputEvent{Type: evKey, Code: keyLeftBrace, Value: 1}), 3, uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, cut int, mode uint8) {
		word := []int{8, 4}[mode&1]
		km := Keymap(mode >> 1 & 1)
		if cut < 0 {
			cut = -cut
		}
		cut %= len(b) + 1
		whole, _ := NewEventDecoder(word)
		split, _ := NewEventDecoder(word)
		ew := whole.Feed(nil, b)
		es := split.Feed(split.Feed(nil, b[:cut]), b[cut:])
		if !slices.Equal(ew, es) || len(ew) != len(b)/EventSize(word) {
			t.Fatalf("%d events whole, %d split at %d, from %d bytes", len(ew), len(es), cut, len(b))
		}
		kw, ks := NewKeyDecoder(km), NewKeyDecoder(km)
		tw := kw.Feed(nil, ew)
		ts := ks.Feed(ks.Feed(nil, ew[:len(ew)/2]), ew[len(ew)/2:])
		if string(tw) != string(ts) {
			t.Fatalf("text differs when the events are split")
		}
		if !utf8.Valid(tw) {
			t.Fatalf("invalid UTF-8 %q", tw)
		}
		for _, fr := range NewFramer(CR, 64).Feed(tw) {
			if fr.Err == nil && slices.Contains(fr.Line, badKey) {
				t.Fatalf("line with an unknown key accepted: %q", fr.Line)
			}
		}
	})
}
