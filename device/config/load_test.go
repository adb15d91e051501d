package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func writeFile(t *testing.T, name, text string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadRegularFile(t *testing.T) {
	p := writeFile(t, "posd.toml", minimal, 0o644)
	c, err := Load(p)
	if err != nil || c.TerminalID != "T-1" {
		t.Fatalf("Load = %+v, %v", c, err)
	}
	// A symbolic link to a regular file is followed.
	link := filepath.Join(t.TempDir(), "link.toml")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(link); err != nil {
		t.Errorf("Load(symlink): %v", err)
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	p := writeFile(t, "posd.toml", minimal+"[display]\nsize = \"8x1\"\n", 0o644)
	_, err := Load(p)
	errs := problems(t, err)
	if len(errs) != 1 || errs[0].File != p {
		t.Fatalf("Load: %v", err)
	}
	if want := p + ":7: display.size: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load error %q, want it to start with %q", err, want)
	}
}

func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := writeFile(t, "big.toml", "# "+strings.Repeat("x", MaxFileSize)+"\n", 0o644)
	open := writeFile(t, "open.toml", minimal, 0o666)
	for _, tc := range []struct {
		path string
		want error
		msg  string
	}{
		{fifo, ErrNotRegular, "a FIFO"},
		{dir, ErrNotRegular, "a directory"},
		{"/dev/null", ErrNotRegular, "a character device"},
		{big, ErrTooLarge, "at most 65536"},
		{open, ErrWritable, "mode 0666"},
		{filepath.Join(dir, "missing.toml"), fs.ErrNotExist, "no such file"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Load(tc.path)
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second): // a guard against a hang, not a wait
			t.Fatalf("Load(%s) blocks", tc.path)
		}
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "config: ") {
			t.Errorf("Load(%s) = %v, want %v mentioning %q", tc.path, err, tc.want, tc.msg)
		}
	}
}
