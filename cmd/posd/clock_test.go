package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// TestEmulateClock: with --clock, two runs of the same script on the same block print the
// same screens and receipts in the same order and leave the same receipt files; the
// receipts carry the virtual time (--clock-step per input line).
func TestEmulateClock(t *testing.T) {
	dir := t.TempDir()
	winners, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	var codeList []string
	for c := range winners {
		codeList = append(codeList, c)
	}
	slices.Sort(codeList)
	script := filepath.Join(dir, "script.txt")
	lines := []string{codes.PackCode{Block: 3, Pack: 1}.String(), "!ok", codeList[0], "!ok", codeList[0], "!reprint", "!report"}
	if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run1 := func(name string) (string, map[string]string) {
		receipts := filepath.Join(dir, name, "receipts")
		var out, errb bytes.Buffer
		rc := run([]string{"--emulate", "--data", filepath.Join(dir, name), "--ledger", ledgerPath, "--pub", pub, "--script", script,
			"--receipts", receipts, "--clock", "2026-12-01T09:00:00+01:00", "--clock-step", "30s"}, nil, &out, &errb)
		if rc != 0 {
			t.Fatalf("exit %d\n%s\n%s", rc, errb.String(), out.String())
		}
		files := map[string]string{}
		ents, err := os.ReadDir(receipts)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(receipts, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(b)
		}
		return out.String(), files
	}
	out1, files1 := run1("a")
	out2, files2 := run1("b")
	if out1 != out2 {
		t.Errorf("the two runs printed differently:\n%s\n---\n%s", out1, out2)
	}
	if len(files1) != 10 { // sale, the payout's two copies, duplicate, report (the second scan is refused: no receipt)
		t.Errorf("%d receipt files, want 10", len(files1))
	}
	for name, data := range files1 {
		if files2[name] != data {
			t.Errorf("receipt file %s differs between the runs", name)
		}
	}
	// The sale is the second input: 09:01:00.
	if !strings.Contains(files1["0001.txt"], "01/12/2026 09:01:00") {
		t.Errorf("sale receipt without the virtual time:\n%s", files1["0001.txt"])
	}
}

// TestEmulateClockFlags: a malformed --clock or a step that does not move is refused.
func TestEmulateClockFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--clock", "2026-12-01 09:00"},
		{"--clock", "2026-12-01T09:00:00Z", "--clock-step", "0s"},
		{"--clock", "2026-12-01T09:00:00Z", "--clock-step", "-1s"},
	} {
		var out, errb bytes.Buffer
		rc := run(append([]string{"--emulate", "--data", t.TempDir(), "--ledger", "none", "--pub", "none"}, args...), strings.NewReader(""), &out, &errb)
		if rc != 1 || !strings.Contains(errb.String(), "--clock") {
			t.Errorf("%q: exit %d, %q", args, rc, errb.String())
		}
	}
}
