package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/internal/version"
)

// TestFirmwareImageCommands: fw seal-image seals a disk image that fw verify accepts
// (told from a bundle by its first bytes); a byte changed in a partition or a seal by
// another key is refused; fw install puts a bundle into a slot root, committed.
func TestFirmwareImageCommands(t *testing.T) {
	dir := t.TempDir()
	p := func(s string) string { return filepath.Join(dir, s) }
	for _, args := range [][]string{{"keys", "gen", "--firmware", "--out", p("fw")}, {"keys", "gen", "--firmware", "--out", p("other")},
		{"keys", "gen", "--out", p("op")}} {
		if out, err := run(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	img := make([]byte, 3<<20)
	img[510], img[511] = 0x55, 0xaa
	if err := os.WriteFile(p("pos.img"), img, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "fw", "seal-image", "--key", p("fw/firmware.key"), "--version", "1.0.0", "--board", "qemu-virt", p("pos.img"))
	if err != nil {
		t.Fatalf("seal-image: %v\n%s", err, out)
	}
	if out, err := run(t, "fw", "verify", "--trust", p("fw/firmware.pub"), p("pos.img")); err != nil ||
		!strings.Contains(out, "ok: image 1.0.0 for linux/arm64 qemu-virt, 3145728 bytes") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	if _, err := run(t, "fw", "verify", "--trust", p("other/firmware.pub"), p("pos.img")); err == nil {
		t.Fatal("verified against another firmware key")
	}
	sealed, _ := os.ReadFile(p("pos.img"))
	sealed[2<<20] ^= 0x80
	os.WriteFile(p("bad.img"), sealed, 0o644)
	if _, err := run(t, "fw", "verify", "--trust", p("fw/firmware.pub"), p("bad.img")); err == nil || !strings.Contains(err.Error(), "do not match") {
		t.Fatalf("changed image: %v", err)
	}

	stamp := "posd binary " + version.StampValue("1.0.0", "abc")
	os.WriteFile(p("posd"), []byte(stamp), 0o755)
	os.WriteFile(p("cfg"), []byte("[terminal]\n"), 0o644)
	if out, err := run(t, "fw", "build", "--version", "1.0.0", "--target", "linux-arm64", "--board", "qemu-virt", "--posd", p("posd"),
		"--posctl", p("posd"), "--config", p("cfg"), "--operator-key", p("op/operator.pub"), "--key", p("fw/firmware.key"), "--out", p("b")); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if out, err := run(t, "fw", "install", "--root", p("slots"), "--trust", p("fw/firmware.pub"), "--commit", p("b")); err != nil ||
		!strings.Contains(out, "installed 1.0.0 in slot a (committed: true)") {
		t.Fatalf("install: %v\n%s", err, out)
	}
	state, err := os.ReadFile(p("slots/state"))
	if err != nil || strings.Contains(string(state), "trial") {
		t.Fatalf("state %s: %v", state, err)
	}
}
