package config_test

import (
	"os"
	"strings"
	"testing"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/web"
)

// TestListenBeyondLoopbackNeedsToken: a status page reachable beyond the machine asks for
// the technician token, so a file that serves it there without token_sha256 is refused by
// the file's own check (posd --check-config), with the line of http.listen, not only at
// boot. Before, --check-config said ok and posd --config refused the same file.
func TestListenBeyondLoopbackNeedsToken(t *testing.T) {
	example, err := os.ReadFile("testdata/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	base := strings.Replace(string(example), "token_sha256 = ", "# token_sha256 = ", 1)
	for _, tc := range []struct {
		listen string
		ok     bool
	}{{"127.0.0.1:8080", true}, {"localhost:8080", true}, {"[::1]:8080", true}, {"0.0.0.0:8080", false}, {":8080", false}, {"192.168.1.20:80", false}} {
		file := strings.Replace(base, `listen = "127.0.0.1:8080"`, `listen = "`+tc.listen+`"`, 1)
		_, err := config.Parse([]byte(file))
		if tc.ok != (err == nil) {
			t.Errorf("listen %q without a token: %v", tc.listen, err)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "http.listen") || !strings.Contains(err.Error(), "token_sha256")) {
			t.Errorf("listen %q: %v", tc.listen, err)
		}
		// The same rule as the page's own (device/web).
		if pageErr := web.Check(tc.listen, ""); (pageErr == nil) != tc.ok {
			t.Errorf("listen %q: config says ok=%v, the page %v", tc.listen, tc.ok, pageErr)
		}
	}
	// With the token, anywhere.
	file := strings.Replace(string(example), `listen = "127.0.0.1:8080"`, `listen = "0.0.0.0:8080"`, 1)
	if _, err := config.Parse([]byte(file)); err != nil {
		t.Errorf("0.0.0.0 with a token: %v", err)
	}
}
