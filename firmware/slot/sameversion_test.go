package slot_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/slot"
)

// Issue 47: a technician with the token installs a bundle of the version already installed
// but of other content (another posd under the same number, which anti-rollback let
// through: only a lower version was refused). Refused at the header (Check) and at
// install, whatever slot runs; the same bundle again installs (idempotent), also on a store
// installed before the content was kept.
func TestSameVersionOtherContentRefused(t *testing.T) {
	root := t.TempDir()
	s := open(t, root)
	good := key.Build(bundletest.Spec{Version: "2.0.0"})
	evil := key.Build(bundletest.Spec{Version: "2.0.0", Posd: []byte("#!posd 2.0.0, the technician's\n")})
	for _, b := range [][]byte{key.Build(bundletest.Spec{Version: "1.0.0"}), good} {
		if _, err := install(t, s, b); err != nil {
			t.Fatal(err)
		}
		boot(t, s)
		if err := s.MarkGood(); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(when string) {
		t.Helper()
		r, err := bundle.NewReader(bytes.NewReader(evil), key.Trust())
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(r.Manifest()); !errors.Is(err, slot.ErrSameVersion) {
			t.Errorf("%s: Check of another 2.0.0: %v", when, err)
		}
		if _, err := install(t, s, evil); !errors.Is(err, slot.ErrSameVersion) {
			t.Fatalf("%s: install of another 2.0.0: %v", when, err)
		}
		if c := boot(t, s); c.Version.String() != "2.0.0" && c.Version.String() != "1.0.0" {
			t.Fatalf("%s: boots %+v", when, c)
		}
	}
	again := func(when string) {
		t.Helper()
		if _, err := install(t, s, good); err != nil {
			t.Fatalf("%s: the same 2.0.0 again: %v", when, err)
		}
		boot(t, s)
		if err := s.MarkGood(); err != nil {
			t.Fatal(err)
		}
	}
	refused("2.0.0 running")
	again("2.0.0 running")
	// A store installed before the content was kept: the slots' headers say it.
	if err := os.Remove(filepath.Join(root, "highwater.manifest")); err != nil {
		t.Fatal(err)
	}
	refused("no digest kept")
	again("no digest kept")
	// 2.0.0 on trial never gets healthy and 1.0.0 comes back: still refused.
	if _, err := install(t, s, key.Build(bundletest.Spec{Version: "2.0.1"})); err != nil {
		t.Fatal(err)
	}
	var c slot.Choice
	for range 4 { // MaxBoots 3, then the fallback
		c = boot(t, s)
	}
	if c.Version.String() != "2.0.0" || !c.Rolled {
		t.Fatalf("after the failed trial: %+v", c)
	}
	evil = key.Build(bundletest.Spec{Version: "2.0.1", Posd: []byte("#!posd 2.0.1, the technician's\n")})
	refused("2.0.1 rolled back")
}
