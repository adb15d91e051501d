package main

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
)

// TestFlashBusy: while another technician's session holds the terminal, posctl flash says
// so in words at once instead of waiting for its retries to run out.
func TestFlashBusy(t *testing.T) {
	e := newEmuTerminal(t)
	to := e.listen(t)
	c, err := net.Dial("tcp", strings.TrimPrefix(to, "tcp:"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(flash.AppendFrame(nil, 'H', append([]byte{flash.ProtocolVersion}, "tech-token"...)))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if f, err := flash.NewFrameReader(c).Next(); err != nil || f.Type != 'O' {
		t.Fatalf("first session: %v %q", err, f.Payload)
	}
	tok := writeTemp(t, "token", []byte("tech-token\n"), 0o600)
	b := writeTemp(t, "fw.bundle", e.key.Build(bundletest.Spec{Version: "2.0.0"}), 0o644)
	start := time.Now()
	out, err := runLink(t, "flash", b, "--to", to, "--token-file", tok)
	if err == nil || !strings.Contains(err.Error(), "the terminal is busy: another technician's session is in progress") {
		t.Fatalf("flash while busy: %v\n%s", err, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("busy told after %v", d)
	}
	t.Log(err)
}
