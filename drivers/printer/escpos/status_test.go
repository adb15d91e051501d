package escpos

import "testing"

func TestStatusRoundTrip(t *testing.T) {
	for _, s := range []Status{
		{},
		{Offline: true},
		{CoverOpen: true, Error: true},
		{PaperEnd: true, PaperStop: true},
		{NearEnd: true},
		{CutterError: true, Unrecoverable: true},
	} {
		var got Status
		for n := byte(1); n <= 4; n++ {
			b, err := StatusReply(s, n)
			if err != nil {
				t.Fatal(err)
			}
			if !IsStatusByte(b) {
				t.Fatalf("reply %#x lacks fixed bits", b)
			}
			if got, err = ParseStatus(got, n, b); err != nil {
				t.Fatal(err)
			}
		}
		if got != s {
			t.Errorf("round trip %+v -> %+v", s, got)
		}
		if got.Ready() != (s == Status{} || s == Status{NearEnd: true}) {
			t.Errorf("Ready(%v) = %v", s, got.Ready())
		}
	}
	// Datasheet examples: n=4 paper end 0x72, near end 0x1E; n=2 cover open 0x16.
	if s, _ := ParseStatus(Status{}, 4, 0x72); !s.PaperEnd || s.NearEnd {
		t.Errorf("0x72: %+v", s)
	}
	if s, _ := ParseStatus(Status{}, 4, 0x1E); !s.NearEnd || s.PaperEnd {
		t.Errorf("0x1E: %+v", s)
	}
	if s, _ := ParseStatus(Status{}, 2, 0x16); !s.CoverOpen {
		t.Errorf("0x16: %+v", s)
	}
}

// FuzzParseStatus: a reply either parses or leaves the status unchanged with an error; the
// ASB pattern (0xx1xx00), XON (0x11) and XOFF (0x13) are never taken for status replies.
func FuzzParseStatus(f *testing.F) {
	for _, s := range [][2]byte{{1, 0x12}, {2, 0x16}, {4, 0x72}, {4, 0x1E}, {3, 0x7A}, {1, 0x11}, {1, 0x13}, {5, 0x12}, {1, 0x10}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, n, b byte) {
		before := Status{NearEnd: true, Offline: true}
		got, err := ParseStatus(before, n, b)
		if err != nil {
			if got != before {
				t.Fatalf("error changed the status")
			}
			return
		}
		if b == 0x11 || b == 0x13 || b&0x93 == 0x10 {
			t.Fatalf("accepted %#x", b)
		}
		if n < 1 || n > 4 {
			t.Fatalf("accepted n=%d", n)
		}
		r, err := StatusReply(got, n)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := ParseStatus(before, n, r); again != got {
			t.Fatalf("re-encoding %#x as %#x changes the status", b, r)
		}
	})
}
