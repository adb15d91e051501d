package main

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/internal/testblock"
)

// tinyDefinition is the shared test game of eight packs (internal/testblock).
const tinyDefinition = testblock.Definition

func TestLedgerGenAndAudit(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "tiny.json")
	if err := os.WriteFile(def, []byte(tinyDefinition), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, out := filepath.Join(dir, "keys"), filepath.Join(dir, "out")
	if o, err := run(t, "keys", "gen", "--out", keys); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	seed := strings.Repeat("ab", 32)
	o, err := run(t, "ledger", "gen", "--key", filepath.Join(keys, "operator.key"), "--block", "7",
		"--seed", seed, "--definition", def, "--out", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	for _, want := range []string{"block 7, ledger version 1: 8 packs, 64 tickets", "block-7.ledger", "block-7.print.csv.gz", "keep it secret",
		"warning: --seed", "only as strong as the seed", "tickets: 64 of 64 (100%)"} {
		if !strings.Contains(o, want) {
			t.Errorf("ledger gen output lacks %q:\n%s", want, o)
		}
	}
	man, err := os.ReadFile(filepath.Join(out, "block-7.manifest.json"))
	if err != nil || !strings.Contains(string(man), seed) {
		t.Fatalf("manifest does not record the seed: %v\n%s", err, man)
	}
	if st, _ := os.Stat(filepath.Join(out, "block-7.manifest.json")); st.Mode().Perm() != 0o600 {
		t.Errorf("manifest mode %v, want 0600", st.Mode().Perm())
	}

	pub := filepath.Join(keys, "operator.pub")
	o, err = run(t, "ledger", "audit", "--pub", pub, out)
	if err != nil || !strings.Contains(o, "CONCLUSION : aucun écart") || !strings.Contains(o, "DIFFÉRENTE du règlement") || !strings.Contains(o, "audit: 64 of 64 (100%)") {
		t.Fatalf("audit of a clean block: %v\n%s", err, o)
	}

	// A raised prize in the printer's file: the audit says so and exits 1.
	path := filepath.Join(out, "block-7.print.csv.gz")
	f, _ := os.Open(path)
	zr, _ := gzip.NewReader(f)
	data, _ := io.ReadAll(zr)
	f.Close()
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if f := strings.Split(l, ","); len(f) > 3 && f[3] == "3000" {
			f[3] = "4000"
			lines[i] = strings.Join(f, ",")
		}
	}
	w, _ := os.Create(path)
	zw := gzip.NewWriter(w)
	zw.Write([]byte(strings.Join(lines, "\n")))
	zw.Close()
	w.Close()
	o, err = run(t, "ledger", "audit", "--pub", pub, out)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(o, "ÉCART") {
		t.Fatalf("audit of a doctored block: %v\n%s", err, o)
	}

	// No trusted key: refused.
	if _, err := run(t, "ledger", "audit", "--pub", filepath.Join(dir, "nothing.pub"), out); err == nil {
		t.Fatal("audit without a trusted key ran")
	}
}
