package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(fifo, 100); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Fatalf("FIFO: %v, want ErrNotRegular", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	if _, _, err := Open(dir); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("directory: %v", err)
	}
	if _, _, err := Open("/dev/null"); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("device: %v", err)
	}
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("hello"), 0o600)
	if d, err := ReadFile(p, 5); err != nil || string(d) != "hello" {
		t.Fatalf("regular file: %q, %v", d, err)
	}
	if _, err := ReadFile(p, 4); err == nil {
		t.Fatal("file above max accepted")
	}
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	if _, _, err := Open(link); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("link to a FIFO: %v", err)
	}
}
