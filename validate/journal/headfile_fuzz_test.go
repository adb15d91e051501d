package journal

import (
	"bytes"
	"testing"
	"time"
)

// FuzzParseHead: a head marker parses only in its canonical form (what parses marshals to
// the same bytes), and never panics.
func FuzzParseHead(f *testing.F) {
	h := Head{Terminal: "T0042", Seq: 42, Hash: [32]byte{0xab, 1}, Key: [8]byte{9}, Time: testStart}
	f.Add(h.Marshal())
	f.Add([]byte("packterm-journal-head-v1 T 00000000000000000000 " + string(bytes.Repeat([]byte("0"), 64)) + " 0000000000000000 00000000000000000000\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseHead(b)
		if err != nil {
			return
		}
		if got := h.Marshal(); !bytes.Equal(got, b) {
			t.Fatalf("not canonical: %q -> %q", b, got)
		}
	})
}

func TestHeadRoundTrip(t *testing.T) {
	h := Head{Terminal: "T-1.a_b", Seq: 1<<64 - 1, Hash: [32]byte{1, 2, 3}, Key: [8]byte{4}, Time: time.Unix(0, 1<<62).UTC()}
	got, err := ParseHead(h.Marshal())
	if err != nil || got != h {
		t.Fatalf("%+v %v", got, err)
	}
	for _, bad := range []string{"", "\n", string(h.Marshal()[:40]), string(bytes.ToUpper(h.Marshal()))} {
		if _, err := ParseHead([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
