package slot_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/slot"
)

var key = bundletest.NewKey()

func install(t *testing.T, s *slot.Store, b []byte) (slot.Installed, error) {
	t.Helper()
	r, err := bundle.NewReader(bytes.NewReader(b), key.Trust())
	if err != nil {
		t.Fatal(err)
	}
	return s.Install(context.Background(), r)
}

func boot(t *testing.T, s *slot.Store) slot.Choice {
	t.Helper()
	c, err := s.Boot()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func open(t *testing.T, root string) *slot.Store {
	t.Helper()
	s, err := slot.Open(root, slot.Options{MaxBoots: 3, Trust: key.Trust(), Target: &bundletest.DefaultTarget})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInstallTrialRollback(t *testing.T) {
	s := open(t, t.TempDir())
	if _, err := s.Boot(); !errors.Is(err, slot.ErrNoBootable) {
		t.Fatalf("empty root booted: %v", err)
	}
	if _, err := install(t, s, key.Build(bundletest.Spec{Version: "1.0.0"})); err != nil {
		t.Fatal(err)
	}
	c := boot(t, s)
	if c.Slot != slot.A || !c.Trial || c.Boots != 1 || c.Version.String() != "1.0.0" {
		t.Fatalf("first boot: %+v", c)
	}
	if b, _ := os.ReadFile(c.Posd); string(b) != "#!posd 1.0.0\n" {
		t.Fatalf("posd = %q", b)
	}
	if _, err := install(t, s, key.Build(bundletest.Spec{Version: "1.1.0"})); !errors.Is(err, slot.ErrTrialPending) {
		t.Fatalf("install during trial: %v", err)
	}
	if err := s.MarkGood(); err != nil {
		t.Fatal(err)
	}
	if c := boot(t, s); c.Trial || c.Slot != slot.A {
		t.Fatalf("after MarkGood: %+v", c)
	}
	in, err := install(t, s, key.Build(bundletest.Spec{Version: "2.0.0"}))
	if err != nil || in.Slot != slot.B || in.Previous != slot.A {
		t.Fatalf("install 2.0.0: %+v %v", in, err)
	}
	// Three starts that never get healthy, then 1.0.0 comes back.
	for i := 1; i <= 3; i++ {
		if c := boot(t, s); c.Slot != slot.B || !c.Trial || c.Boots != i {
			t.Fatalf("trial boot %d: %+v", i, c)
		}
	}
	if c := boot(t, s); c.Slot != slot.A || c.Trial || !c.Rolled || c.Version.String() != "1.0.0" {
		t.Fatalf("after 3 failed starts: %+v", c)
	}
	// Anti-rollback: 2.0.0 was installed once, so 1.5.0 is refused even though 1.0.0 runs.
	if _, err := install(t, s, key.Build(bundletest.Spec{Version: "1.5.0"})); !errors.Is(err, slot.ErrRollback) {
		t.Fatalf("older version: %v", err)
	}
	if _, err := install(t, s, key.Build(bundletest.Spec{Version: "3.0.0", MinVersion: "2.0.0"})); !errors.Is(err, slot.ErrTooOld) {
		t.Fatalf("min version: %v", err)
	}
	other := bundle.Target{OS: "linux", Arch: "arm64", Board: "rpi"}
	if _, err := install(t, s, key.Build(bundletest.Spec{Version: "3.0.0", Target: &other})); !errors.Is(err, slot.ErrTarget) {
		t.Fatalf("other target: %v", err)
	}
	if _, err := install(t, s, key.Build(bundletest.Spec{Version: "2.1.0"})); err != nil {
		t.Fatal(err)
	}
	if c := boot(t, s); c.Slot != slot.B || c.Version.String() != "2.1.0" || !c.Trial {
		t.Fatalf("2.1.0: %+v", c)
	}
	s.MarkGood()
	// A slot whose posd was damaged is never booted: the previous comes back.
	os.WriteFile(filepath.Join(s.Dir(slot.B), "posd"), []byte("junk"), 0o755)
	if c := boot(t, s); c.Slot != slot.A || !c.Rolled {
		t.Fatalf("damaged active slot: %+v", c)
	}
}

func TestHashMismatchLeavesActive(t *testing.T) {
	s := open(t, t.TempDir())
	install(t, s, key.Build(bundletest.Spec{Version: "1.0.0"}))
	boot(t, s)
	s.MarkGood()
	b := key.Build(bundletest.Spec{Version: "2.0.0"})
	b[len(b)-2] ^= 1
	if _, err := install(t, s, b); !errors.Is(err, bundle.ErrHash) {
		t.Fatalf("corrupt payload: %v", err)
	}
	if c := boot(t, s); c.Slot != slot.A || c.Version.String() != "1.0.0" || c.Trial {
		t.Fatalf("after a refused install: %+v", c)
	}
}

func TestBootedFromEnv(t *testing.T) {
	root := t.TempDir()
	s := open(t, root)
	install(t, s, key.Build(bundletest.Spec{Version: "1.2.0"}))
	c := boot(t, s)
	for _, kv := range c.Env(root) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	b, ok := slot.BootedFromEnv()
	if !ok || b.Slot != slot.A || !b.Trial || b.Version.String() != "1.2.0" {
		t.Fatalf("BootedFromEnv = %+v %v", b, ok)
	}
	if err := b.MarkGood(nil); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.State(); st.Trial {
		t.Fatal("not marked good")
	}
	b.Slot = slot.B
	if err := b.MarkGood(nil); !errors.Is(err, slot.ErrNotActive) {
		t.Fatalf("marking a slot that is not active: %v", err)
	}
	t.Setenv(slot.EnvRoot, "")
	if _, ok := slot.BootedFromEnv(); ok {
		t.Fatal("booted without a root")
	}
}

// The first firmware has nothing to fall back to: it keeps booting on trial.
func TestTrialWithoutFallbackKeepsBooting(t *testing.T) {
	s := open(t, t.TempDir())
	install(t, s, key.Build(bundletest.Spec{Version: "1.0.0"}))
	for i := 1; i <= 6; i++ {
		if c := boot(t, s); c.Slot != slot.A || !c.Trial || c.Rolled {
			t.Fatalf("start %d: %+v", i, c)
		}
	}
	if st, err := s.State(); err != nil || st.Boots != 6 {
		t.Fatalf("state %+v %v", st, err)
	}
}
