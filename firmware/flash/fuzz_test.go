package flash_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"path/filepath"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/flash"
)

// FuzzFrameReader: any byte stream yields frames whose re-encoding is found again, and
// ends with the stream's end; never a panic or a hang.
func FuzzFrameReader(f *testing.F) {
	f.Add(flash.AppendFrame(nil, 'H', []byte{1, 'x'}))
	f.Add(append([]byte{0xF7, 0x5A, 'D', 0xFF, 0xFF}, flash.AppendFrame(nil, 'E', nil)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr := flash.NewFrameReader(bytes.NewReader(b))
		for {
			fm, err := fr.Next()
			if err != nil {
				if err != io.EOF && err != io.ErrUnexpectedEOF {
					t.Fatalf("error %v", err)
				}
				return
			}
			if len(fm.Payload) > flash.MaxPayload {
				t.Fatal("oversized payload")
			}
			if !bytes.Contains(b, flash.AppendFrame(nil, fm.Type, fm.Payload)) {
				t.Fatal("frame not in the input")
			}
		}
	})
}

type rw struct {
	io.Reader
	io.Writer
}

// FuzzServer: after a good Hello, any frames the host sends leave the server answering
// (no panic, no hang) until the stream ends.
func FuzzServer(f *testing.F) {
	tok := []byte("t")
	hello := flash.AppendFrame(nil, 'H', append([]byte{flash.ProtocolVersion}, tok...))
	var beginP []byte
	beginP = append(beginP, byte(flash.Config), 0, 0, 0, 0, 0, 0, 0, 3)
	beginP = append(beginP, make([]byte, 32)...)
	f.Add(flash.AppendFrame(nil, 'B', beginP))
	f.Add(append(flash.AppendFrame(nil, 'B', beginP), flash.AppendFrame(nil, 'D', []byte{0, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c'})...))
	f.Add(flash.AppendFrame(nil, 'E', nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		srv := &flash.Server{TokenHash: sha256.Sum256(tok), SpoolDir: filepath.Join(dir, "spool"), AuthDelay: -1,
			Clock: clockwork.NewFakeClock(),
			Items: map[flash.Kind]flash.Item{flash.Config: {Path: filepath.Join(dir, "cfg"), MaxSize: 1 << 16,
				Verify: func(context.Context, string) error { return nil }}}}
		in := append(append([]byte(nil), hello...), b...)
		if err := srv.Serve(context.Background(), rw{bytes.NewReader(in), io.Discard}); err != nil {
			t.Fatal(err)
		}
	})
}
