package web

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/scanner"
)

// FuzzDecodeImage: an upload decodes to an image within the bounds, or is refused with
// an error; never a panic or a huge allocation.
func FuzzDecodeImage(f *testing.F) {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 3)))
	f.Add(b.Bytes())
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Add([]byte{0xff, 0xd8, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := decodeImage(data)
		if err == nil {
			bd := img.Bounds()
			if bd.Dx()*bd.Dy() > scanner.MaxPhotoPixels {
				t.Fatalf("%v accepted", bd)
			}
		}
	})
}

// FuzzInputRequest: the controls' JSON decodes or is refused, and only known actions map.
func FuzzInputRequest(f *testing.F) {
	f.Add(`{"action":"ok"}`)
	f.Add(`{"action":"scan","code":"000700000002"}`)
	f.Add(`{"action":"unlock","code":"x"}`)
	f.Fuzz(func(t *testing.T, body string) {
		var req inputRequest
		if err := json.NewDecoder(strings.NewReader(body)).Decode(&req); err != nil {
			return
		}
		if a, ok := actions[req.Action]; ok && a == 0 {
			t.Fatal("zero action")
		}
	})
}

// FuzzReadable: the panel's text is rewritten without losing what is outside braces.
func FuzzReadable(f *testing.F) {
	f.Add("PAY{É} 5,00 {€}")
	f.Add("{cg3}{")
	f.Add("}{}{{x}}")
	f.Fuzz(func(t *testing.T, s string) {
		out := readable([]string{s})
		if len(out) != 1 || len(out[0]) > len(s) {
			t.Fatalf("%q -> %q", s, out)
		}
	})
}

// FuzzHostCheck: any Host and origin headers are answered or refused, never a panic; a Host
// answered is a loopback name or a configured one, on the listening port.
func FuzzHostCheck(f *testing.F) {
	for _, h := range [][4]string{
		{"127.0.0.1:8080", "http://127.0.0.1:8080", "same-origin", ""},
		{"evil.example:8080", "http://evil.example:8080", "same-origin", ""},
		{"[::1]:8080", "null", "", "http://[::1]:8080/"},
		{"POS-0042.local:8080", "", "", "http://pos-0042.local:8080/"},
		{"localhost:9000", "https://localhost:9000", "cross-site", ""},
		{"[::ffff:127.0.0.1]:8080", "http://a:b@[::1]:8080", "", ""},
		{"localhost", "", "", "%zz"},
	} {
		f.Add(h[0], h[1], h[2], h[3])
	}
	g := newOrigins(Options{Addr: "127.0.0.1:8080", Hosts: []string{"pos-0042.local", "localhost:9000"}})
	f.Fuzz(func(t *testing.T, host, origin, site, referer string) {
		r := httptest.NewRequest(http.MethodPost, "/emu/input", nil)
		r.Host = host
		r.Header.Set("Origin", origin)
		r.Header.Set("Sec-Fetch-Site", site)
		r.Header.Set("Referer", referer)
		_ = originOK(r)
		if !g.hostOK(r) {
			return
		}
		name, port, err := net.SplitHostPort(host)
		name = strings.ToLower(name)
		ip := net.ParseIP(name)
		switch {
		case err != nil:
			t.Fatalf("Host %q answered: no port (80 is not the listening port)", host)
		case port == "9000" && name == "localhost":
		case port != "8080":
			t.Fatalf("Host %q answered on another port", host)
		case name != "localhost" && name != "pos-0042.local" && (ip == nil || !ip.IsLoopback()):
			t.Fatalf("Host %q answered", host)
		}
	})
}

// FuzzSourceOf: any remote address maps to one guessing source, never a panic; an IPv4
// address is itself and every address of an IPv6 /64 is the same source.
func FuzzSourceOf(f *testing.F) {
	for _, s := range []string{"192.0.2.1:80", "[2001:db8::1]:80", "[fe80::1%eth0]:1", "[::ffff:10.0.0.1]:2", "pipe", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, remote string) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = remote
		src := sourceOf(r)
		ap, err := netip.ParseAddrPort(remote)
		if err != nil {
			return
		}
		ip := ap.Addr().Unmap()
		if ip.Is4() && src != ip.String() {
			t.Fatalf("%q: source %q", remote, src)
		}
		if ip.Is6() {
			if p, err := netip.ParsePrefix(src); err != nil || p.Bits() != 64 || !p.Contains(ip.WithZone("")) {
				t.Fatalf("%q: source %q", remote, src)
			}
		}
	})
}

// FuzzDescribeLine: a stdin line shows as an input or as none, never a panic; an unlock's
// token never shows.
func FuzzDescribeLine(f *testing.F) {
	for _, s := range []string{"003G0000000A1B2C3D4E5F6G7H", "!ok", "!unlock tok3n", "!photo /tmp/x/latex.png", "# c", "@winner-10", "!expect PAYÉ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		what, _, ok := describeLine(line)
		if !ok && what != "" {
			t.Fatalf("%q: no input, shown as %q", line, what)
		}
		t2 := strings.TrimSpace(line)
		if name, arg, _ := strings.Cut(strings.TrimPrefix(t2, "!"), " "); strings.HasPrefix(t2, "!") && strings.EqualFold(name, "unlock") && strings.TrimSpace(arg) != "" && what != strings.ToLower(name) {
			t.Fatalf("%q: unlock shown as %q", line, what)
		}
	})
}
