package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An emulator started as its own process and stopped with SIGTERM (kill, systemd, a CI
// runner's timeout) exits 0 and removes its pty link, as on Ctrl-C.
func TestEmulatorsRemoveTheirLinkOnSIGTERM(t *testing.T) {
	for _, kind := range []string{"printer", "scanner"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			link := filepath.Join(dir, "tty"+kind)
			args := []string{kind, "emulate", "--link", link}
			if kind == "printer" {
				args = append(args, "--out", filepath.Join(dir, "receipts"))
			}
			c := posctlProcess(t, args...)
			// The printer announces itself on stdout, the scanner on stderr (its stdout is
			// free for the lines typed); both go to one pipe here.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			c.Stdout, c.Stderr = w, w
			stdin, err := c.StdinPipe() // held open: the scanner must not stop on end of input
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			defer c.Process.Kill()
			ready := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(r).ReadString('\n')
				ready <- line
				io.Copy(io.Discard, r)
			}()
			select {
			case line := <-ready:
				if !strings.HasPrefix(line, "emulated "+kind) || !strings.Contains(line, " at "+link) {
					t.Fatalf("first line %q", line)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("emulator did not start")
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("link %s while running: %v", link, err)
			}
			if err := c.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- c.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("after SIGTERM: %v", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("emulator still running 20 s after SIGTERM")
			}
			if _, err := os.Lstat(link); !os.IsNotExist(err) {
				t.Errorf("link %s left behind after SIGTERM: %v", link, err)
			}
		})
	}
}
