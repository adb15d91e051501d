package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/internal/version"
	"github.com/packterm/pos/validate/ledger"
)

func TestFirmwareBundleCommands(t *testing.T) {
	dir := t.TempDir()
	p := func(s string) string { return filepath.Join(dir, s) }
	for _, args := range [][]string{{"keys", "gen", "--firmware", "--out", p("fw")}, {"keys", "gen", "--out", p("op")}} {
		if out, err := run(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(p("posd"), []byte("posd binary "+version.StampValue("1.4.0", "abc")+" end"), 0o755)
	// posd and posctl must be stamped with the bundle's version (read from the file).
	os.WriteFile(p("posd-1.3"), []byte("posd binary "+version.StampValue("v1.3.0", "abc")), 0o755)
	os.WriteFile(p("posd-dev"), []byte("posd binary, no stamp"), 0o755)
	for _, bin := range []string{"posd-1.3", "posd-dev"} {
		args := []string{"fw", "build", "--version", "1.4.0", "--target", "linux-armv7", "--posd", p(bin), "--posctl", p("posd"),
			"--config", p("cfg"), "--operator-key", p("op/operator.pub"), "--out", p("refused")}
		if out, err := run(t, args...); err == nil || !strings.Contains(err.Error(), "VERSION=1.4.0 scripts/build.sh") {
			t.Fatalf("build with %s: %v\n%s", bin, err, out)
		}
		if _, err := os.Stat(p("refused")); err == nil {
			t.Fatalf("a bundle was written with %s", bin)
		}
	}
	os.WriteFile(p("cfg"), []byte("[terminal]\n"), 0o644)
	build := []string{"fw", "build", "--version", "1.4.0", "--target", "linux-armv7", "--posd", p("posd"), "--posctl", p("posd"),
		"--config", p("cfg"), "--operator-key", p("op/operator.pub"), "--out", p("b.unsigned")}
	if out, err := run(t, build...); err != nil || !strings.Contains(out, "firmware 1.4.0 for linux/arm v7 rpi, 4 files") {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := run(t, "fw", "inspect", p("b.unsigned"))
	if err != nil || !strings.Contains(out, "unsigned") || !strings.Contains(out, "every file matches") {
		t.Fatalf("inspect: %v\n%s", err, out)
	}
	if _, err := run(t, "fw", "verify", "--trust", p("fw/firmware.pub"), p("b.unsigned")); err == nil {
		t.Fatal("an unsigned bundle verified")
	}
	if out, err := run(t, "fw", "sign", "--key", p("fw/firmware.key"), "--out", p("b"), p("b.unsigned")); err != nil {
		t.Fatalf("sign: %v\n%s", err, out)
	}
	if out, err := run(t, "fw", "verify", "--trust", p("fw/firmware.pub"), p("b")); err != nil || !strings.HasPrefix(out, "ok: firmware 1.4.0") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	// The operator key can neither sign nor be trusted for firmware.
	if _, err := run(t, "fw", "sign", "--key", p("op/operator.key"), "--out", p("b2"), p("b.unsigned")); err == nil {
		t.Fatal("signed with the operator key")
	}
	if _, err := run(t, "fw", "verify", "--trust", p("op/operator.pub"), p("b")); err == nil {
		t.Fatal("verified against the operator key")
	}
	// A firmware key file is no ledger key either.
	if _, err := ledger.LoadPublicKey(p("fw/firmware.pub")); err == nil {
		t.Fatal("the ledger accepted a firmware public key")
	}
	if _, err := fwkey.LoadPublic(p("op/operator.pub")); err == nil {
		t.Fatal("fwkey accepted an operator public key")
	}
	// A tampered payload fails verify.
	b, _ := os.ReadFile(p("b"))
	b[len(b)-1] ^= 1
	os.WriteFile(p("bad"), b, 0o644)
	if _, err := run(t, "fw", "verify", "--trust", p("fw/firmware.pub"), p("bad")); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("tampered bundle: %v", err)
	}
}
