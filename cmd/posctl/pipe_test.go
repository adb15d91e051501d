package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// closedStdout returns a pipe's write end whose read end is already closed: every write
// to it fails with EPIPE (and raises SIGPIPE), as with `posctl … | head -1` once head
// has gone.
func closedStdout(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close() })
	return w
}

func TestClosedStdoutIsANormalEnd(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"code", "render", "validation", "42", "1", "3", "--out", filepath.Join(dir, "v.png")},
		{"game", "show"},
		{"game", "show", "--json"},
		{"--help"},
	} {
		c := posctlProcess(t, args...)
		c.Stdout = closedStdout(t)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		err := c.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Errorf("%v with stdout closed: %v (%s), stderr %q", args, err, ee.ProcessState, stderr.String())
		} else if err != nil {
			t.Fatal(err)
		}
		if stderr.Len() != 0 {
			t.Errorf("%v with stdout closed: stderr %q", args, stderr.String())
		}
	}
}

// A long-running command (an emulator) stops when its reader goes away, cleanly: exit 0
// and its pty link removed.
func TestClosedStdoutStopsAnEmulator(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "ttyPRN")
	c := posctlProcess(t, "printer", "emulate", "--link", link, "--out", filepath.Join(dir, "receipts"))
	c.Stdout = closedStdout(t)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("printer emulate with stdout closed: %v, stderr %q", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		c.Process.Kill()
		t.Fatal("printer emulate kept running with its stdout closed")
	}
	if _, err := os.Lstat(link); !os.IsNotExist(err) {
		t.Errorf("link %s left behind: %v", link, err)
	}
}
