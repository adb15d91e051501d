package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestFlagsCheckedBeforeGeneration: a bad --display is refused at once, before anything
// long is done (the first run's demo block, here the ledger given), not after.
func TestFlagsCheckedBeforeGeneration(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothing-here")
	for _, c := range []struct {
		flag string // the flag to be named
		args []string
	}{
		{"--display", []string{"--display", "99x9", "--ledger", missing, "--pub", missing}},
		{"--script", []string{"--display", "16x2", "--script", missing, "--ledger", missing, "--pub", missing}},
	} {
		var out, errb bytes.Buffer
		args, flag := c.args, c.flag
		rc := run(append([]string{"--emulate", "--data", filepath.Join(dir, "data")}, args...), nil, &out, &errb)
		if rc != 2 || !strings.Contains(errb.String(), flag) {
			t.Errorf("%v: exit %d, want 2 and %s named first:\n%s", args, rc, flag, errb.String())
		}
		if _, err := os.Stat(filepath.Join(dir, "data", "terminal")); err == nil {
			t.Errorf("%v: the terminal was set up before the flags were checked", args)
		}
	}
}

// TestOneLogFormat: everything posd --emulate writes on standard error, its logs (-v)
// included, is in one form, "posd: …", not slog's "time=… level=… msg=…" among them.
func TestOneLogFormat(t *testing.T) {
	dir := t.TempDir()
	winners, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	var code string
	for c := range winners {
		code = c
		break
	}
	script := filepath.Join(dir, "script.txt")
	if err := os.WriteFile(script, []byte(code+"\n!ok\n!report\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"--emulate", "-v", "--data", filepath.Join(dir, "data"), "--ledger", ledgerPath, "--pub", pub, "--script", script},
		nil, &out, &errb); rc != 0 {
		t.Fatalf("exit %d\n%s", rc, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if len(lines) < 3 {
		t.Fatalf("too few log lines with -v:\n%s", errb.String())
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "posd: ") || strings.Contains(l, "time=") || strings.Contains(l, "msg=") {
			t.Errorf("line not in posd's form: %q", l)
		}
	}
	if !strings.Contains(errb.String(), "posd: journal: open") {
		t.Errorf("the journal's log line is missing:\n%s", errb.String())
	}
}

// TestDemoProgressOneLineOnTerminal: on a terminal the demo block's generation is one
// line redrawn in place, not a line every few seconds.
func TestDemoProgressOneLineOnTerminal(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer master.Close()
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(master)
		got <- string(b)
	}()
	report, finish := demoProgress(&lockedWriter{w: tty}) // as run wraps stderr
	const total = 12_000_000
	for d := 0; d <= total; d += total / 40 {
		report(d, total)
	}
	finish()
	tty.Close()
	out := <-got
	if n := strings.Count(out, "\n"); n != 1 || !strings.Contains(out, "\r") || !strings.Contains(out, "100%") {
		t.Errorf("%d lines, want one redrawn in place (\\r) up to 100%%:\n%q", n, out)
	}
}
