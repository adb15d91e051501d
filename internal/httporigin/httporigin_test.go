package httporigin

import (
	"net/http/httptest"
	"testing"
)

func TestHostOK(t *testing.T) {
	extra := Entries([]string{"pos.local", "Tunnel.example:9000", "bad/name"})
	if len(extra) != 2 || extra[1] != (Entry{"tunnel.example", "9000"}) {
		t.Fatalf("entries %v", extra)
	}
	for host, want := range map[string]bool{
		"localhost:8090": true, "127.0.0.1:8090": true, "[::1]:8090": true, "pos.local:8090": true, "POS.LOCAL:8090": true,
		"tunnel.example:9000": true, "tunnel.example:8090": false, "localhost:9999": false, "evil.example:8090": false,
		"localhost.:8090": false, "0.0.0.0:8090": false, "": false, "user@localhost:8090": false, "localhost": false,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		if got := HostOK(r, "127.0.0.1:8090", extra); got != want {
			t.Errorf("Host %q: %v, want %v", host, got, want)
		}
	}
}

func TestOriginOK(t *testing.T) {
	for _, c := range []struct {
		method, origin, site, referer string
		want                          bool
	}{
		{"GET", "http://evil.example", "", "", true},
		{"POST", "http://localhost:8090", "", "", true},
		{"POST", "http://evil.example", "", "", false},
		{"POST", "null", "same-origin", "", true},
		{"POST", "null", "cross-site", "", false},
		{"POST", "", "cross-site", "", false},
		{"POST", "", "", "http://localhost:8090/x", true},
		{"POST", "", "", "http://evil.example/x", false},
		{"POST", "", "", "", true},
	} {
		r := httptest.NewRequest(c.method, "/", nil)
		r.Host = "localhost:8090"
		for k, v := range map[string]string{"Origin": c.origin, "Sec-Fetch-Site": c.site, "Referer": c.referer} {
			if v != "" {
				r.Header.Set(k, v)
			}
		}
		if got := OriginOK(r); got != c.want {
			t.Errorf("%+v: %v", c, got)
		}
	}
}

func TestSource(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:5000": "192.0.2.7", "[2001:db8::1:2]:5000": "2001:db8::/64", "[::ffff:192.0.2.7]:1": "192.0.2.7", "pipe": "pipe",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = addr
		if got := Source(r); got != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
}

// FuzzSplitHost: any Host splits into a lower-case name without separators, or is refused.
func FuzzSplitHost(f *testing.F) {
	for _, s := range []string{"localhost:8090", "[::1]", "[::1]:80", "a:b:c", "@x", "POS.local"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		name, _, ok := SplitHost(h, "80")
		if ok && (name == "" || name != toLower(name)) {
			t.Fatalf("%q: name %q", h, name)
		}
	})
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
