package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckConfigReportsEveryProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "posd.toml")
	bad := "[terminal]\nid = \"T1\"\n[limits]\npay_per_ticket = \"abc\"\n[display]\nsize = \"40x2\"\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--check-config", path}, nil, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, errb.String())
	}
	for _, want := range []string{"pay_per_ticket", "size", path + ":"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, errb.String())
		}
	}
}

func TestNoModeIsAnError(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--emulate") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "posd dev (commit ") {
		t.Errorf("exit %d: %q %s", code, out.String(), errb.String())
	}
}
