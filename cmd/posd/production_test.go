package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// labPackage matches what the production posd must not link: the emulators, the pty they
// run on, the block generator and its LP solver (scripts/build.sh's check_production).
var labPackage = regexp.MustCompile(`/hd44780emul$|/printeremul$|/scanneremul$|/serialemul$|/gpiosim$|^github.com/creack/pty$|/validate/block$|^gonum.org/|/device/emulated$`)

// TestProductionLinksNoLab: posd built with -tags production (scripts/build.sh's dist/posd)
// for the board's targets links none of the lab's packages, and the lab build (go run
// ./cmd/posd) links them (else the check would prove nothing).
func TestProductionLinksNoLab(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list: not with -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command here")
	}
	deps := func(t *testing.T, env []string, args ...string) []string {
		t.Helper()
		cmd := exec.Command(gobin, append([]string{"list", "-deps"}, append(args, ".")...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		return strings.Fields(string(out))
	}
	lab := func(pkgs []string) (found []string) {
		for _, p := range pkgs {
			if labPackage.MatchString(p) {
				found = append(found, p)
			}
		}
		return found
	}
	for _, env := range [][]string{{"GOOS=linux", "GOARCH=arm", "GOARM=7", "CGO_ENABLED=0"}, {"GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0"}} {
		if found := lab(deps(t, env, "-tags", "production")); len(found) > 0 {
			t.Errorf("%v: the production posd links %v", env, found)
		}
		if found := lab(deps(t, env)); len(found) == 0 {
			t.Errorf("%v: the lab posd links none of the lab's packages: the check is broken", env)
		}
	}
}

// virtBoardPackage is what the qemu image's posd (-tags production,virt) links beyond the
// production posd: the board emulator its qemu-virt profile wires (the pin-level LCD and
// the fake pins), nothing else of the lab.
var virtBoardPackage = regexp.MustCompile(`/hd44780emul$|/gpiosim$`)

// TestVirtLinksOnlyTheBoardEmulator: the image's posd (scripts/image.sh, -tags
// production,virt) links the board emulator and none of the lab's other packages (the
// scanner, printer and serial emulators, pty, the block generator, gonum), and its
// device/board holds the qemu-virt profile; -tags production alone holds neither the
// profile nor the board emulator.
func TestVirtLinksOnlyTheBoardEmulator(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list: not with -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command here")
	}
	env := []string{"GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0"}
	list := func(t *testing.T, args ...string) []string {
		t.Helper()
		cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return strings.Fields(string(out))
	}
	var board, other []string
	for _, p := range list(t, "-deps", "-tags", "production,virt", ".") {
		switch {
		case virtBoardPackage.MatchString(p):
			board = append(board, p)
		case labPackage.MatchString(p):
			other = append(other, p)
		}
	}
	if len(other) > 0 {
		t.Errorf("the image's posd (-tags production,virt) links the lab's %v", other)
	}
	if len(board) != 2 {
		t.Errorf("the image's posd links the board emulator's %v, want hd44780emul and gpiosim: is the virt tag still honoured?", board)
	}
	files := func(tags string) string {
		return strings.Join(list(t, "-tags", tags, "-f", "{{.GoFiles}}", "github.com/packterm/pos/device/board"), " ")
	}
	if f := files("production,virt"); !strings.Contains(f, "qemuvirt.go") || strings.Contains(f, "emulated_production.go") {
		t.Errorf("device/board with -tags production,virt: %s, want qemuvirt.go and the emulated board", f)
	}
	if f := files("production"); strings.Contains(f, "qemuvirt.go") || !strings.Contains(f, "emulated_production.go") {
		t.Errorf("device/board with -tags production: %s, want no qemu-virt profile and no emulated board", f)
	}
	for _, p := range list(t, "-deps", "-tags", "production", ".") {
		if virtBoardPackage.MatchString(p) {
			t.Errorf("the production posd links the board emulator %s", p)
		}
	}
}
