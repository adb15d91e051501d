package conntest

import (
	"bytes"
	"context"
	"testing"
	"time"
)

func TestPlaybackMatchesAndFails(t *testing.T) {
	p := &Playback{Ops: []IO{{W: []byte{1, 2}, R: []byte{9}}, {W: []byte{3}}}}
	if _, err := p.Write([]byte{1, 2}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if n, err := p.ReadContext(context.Background(), b); n != 1 || err != nil || b[0] != 9 {
		t.Fatalf("read %d %v", n, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := p.ReadContext(ctx, b); err == nil {
		t.Fatal("read past the recording")
	}
	if err := p.Close(); err == nil {
		t.Fatal("Close with an exchange left")
	}
	if _, err := p.Write([]byte{4}); err == nil || p.Close() == nil {
		t.Fatal("wrong write accepted")
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	ops := []IO{{W: []byte{0x10, 0x04, 0x01}, R: []byte{0x12}}, {W: []byte("abc"), R: nil}}
	got, err := Unmarshal(Marshal(ops))
	if err != nil || len(got) != 2 || !bytes.Equal(got[0].R, []byte{0x12}) || string(got[1].W) != "abc" {
		t.Fatalf("%+v %v", got, err)
	}
}

// FuzzUnmarshal: a session file parses or is refused; what parses re-marshals to the same ops.
func FuzzUnmarshal(f *testing.F) {
	f.Add(Marshal([]IO{{W: []byte{0x10, 4, 1}, R: []byte{0x12}}}))
	f.Add([]byte("W zz\nR 00\n"))
	f.Add([]byte("R 00\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ops, err := Unmarshal(b)
		if err != nil {
			return
		}
		again, err := Unmarshal(Marshal(ops))
		if err != nil || len(again) != len(ops) {
			t.Fatalf("re-marshal: %v", err)
		}
		for i := range ops {
			if !bytes.Equal(ops[i].W, again[i].W) || !bytes.Equal(ops[i].R, again[i].R) {
				t.Fatalf("op %d changed", i)
			}
		}
	})
}
