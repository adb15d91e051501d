package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/packterm/pos/device/retail"
)

// TestStatusNamesMissing: a terminal not yet provisioned names on its status page and in
// status.json what a technician must install (the items its panel names at rest); a
// provisioned one says nothing of it.
func TestStatusNamesMissing(t *testing.T) {
	for _, c := range []struct {
		m          retail.Missing
		page, json string
	}{
		{retail.MissingLedger | retail.MissingStatus, "to install: ledger, pack status list.", `"missing": [
    "ledger",
    "pack status list"
  ]`},
		{retail.AllMissing, "to install: operator keys, ledger, pack status list.", `"operator keys"`},
		{0, "", ""},
	} {
		s, err := New(Options{Parts: &Parts{TerminalID: "T-42", Version: "v1", Missing: c.m}})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(s)
		_, page := get(t, http.DefaultClient, hs.URL+"/", map[string]string{"Accept": "text/html"})
		_, js := get(t, http.DefaultClient, hs.URL+"/status.json", nil)
		hs.Close()
		if c.m == 0 {
			if strings.Contains(page, `id="missing"`) || strings.Contains(js, `"missing"`) {
				t.Errorf("nothing missing, yet the page or status.json names something: %s", js)
			}
			continue
		}
		if !strings.Contains(page, `id="missing"`) || !strings.Contains(page, c.page) {
			t.Errorf("%v: the status page does not say %q", c.m, c.page)
		}
		if !strings.Contains(js, c.json) {
			t.Errorf("%v: status.json lacks %s: %s", c.m, c.json, js)
		}
	}
}
