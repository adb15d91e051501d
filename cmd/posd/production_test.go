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
var labPackage = regexp.MustCompile(`/hd44780emul$|/printeremul$|/scanneremul$|/serialemul$|/gpiosim$|/gpioiotest$|^github.com/creack/pty$|/validate/block$|^gonum.org/|/device/emulated$`)

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
