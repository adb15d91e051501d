package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/journal"
)

// TestStatusJournalRefused: a journal removed on a terminal that had one is refused, and
// the technician's status page says so, with why and what showed there was a journal.
func TestStatusJournalRefused(t *testing.T) {
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: "T-42"})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if err := os.Remove(filepath.Join(dir, journal.DBFile)); err != nil {
		t.Fatal(err)
	}
	j, err = journal.Open(dir, journal.Options{Terminal: "T-42"})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	s, err := New(Options{Parts: &Parts{TerminalID: "T-42", Journal: j, Version: "v1"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	_, body := get(t, http.DefaultClient, hs.URL+"/", map[string]string{"Accept": "text/html"})
	for _, want := range []string{`id="journal-refused"`, "nothing is sold or paid", "journal.db missing", "device.key"} {
		if !strings.Contains(body, want) {
			t.Errorf("status page lacks %q", want)
		}
	}
	_, body = get(t, http.DefaultClient, hs.URL+"/status.json", nil)
	if !strings.Contains(body, `"refused": {`) || !strings.Contains(body, `"reason": "journal.db missing"`) {
		t.Errorf("status.json: %s", body)
	}
}
