package maint

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/internal/installlock"
)

// TestConfigInstallLocked: the link's configuration is checked and renamed under the
// configuration directory's install lock, like every install: while another install
// holds it, nothing changes (an install whose context ends while it waits is refused
// and leaves no file behind); once free, a good configuration lands whole and a bad one
// is refused.
func TestConfigInstallLocked(t *testing.T) {
	s, _ := site(t)
	it := Items(s)[flash.Config]
	ctx := context.Background()
	good := writeConfig(t, *s.Running)
	if _, err := it.Install(ctx, good); err != nil {
		t.Fatal(err)
	}
	want := mustRead(t, good)
	if got := mustRead(t, s.ConfigPath); !bytes.Equal(got, want) {
		t.Fatal("installed configuration differs from the one sent")
	}
	dir := filepath.Dir(s.ConfigPath)
	l, err := installlock.TryAcquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.toml")
	os.WriteFile(other, append([]byte("# another\n"), want...), 0o644)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := it.Install(cancelled, other); !errors.Is(err, context.Canceled) {
		t.Fatalf("install while another holds the lock: %v", err)
	}
	l.Release()
	if got := mustRead(t, s.ConfigPath); !bytes.Equal(got, want) {
		t.Fatal("the configuration changed while another install held the lock")
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[terminal]\nid = \"T 1\"\n"), 0o644)
	if _, err := it.Install(ctx, bad); err == nil {
		t.Fatal("a configuration posd would refuse was installed")
	}
	if _, err := it.Install(ctx, other); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, s.ConfigPath); !bytes.Equal(got, mustRead(t, other)) {
		t.Fatal("second configuration not installed")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
