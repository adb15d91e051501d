package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/slot"
)

// TestMain lets the test binary play two parts: posboot itself (POSBOOT_TEST=run, with
// the real syscall.Exec), and the fake posd it execs (POS_SLOT set by posboot), which
// marks its slot good or fails as POSBOOT_FAKE says.
func TestMain(m *testing.M) {
	switch {
	case os.Getenv("POS_SLOT") != "":
		fakePosd()
	case os.Getenv("POSBOOT_TEST") == "run":
		// main's env, but the test's user may own the key files (t.TempDir).
		log := slog.New(slog.NewTextHandler(os.Stderr, nil))
		os.Exit(run(env{exec: syscall.Exec, log: log, anchorOwner: os.Getuid()}, strings.Fields(os.Getenv("POSBOOT_ARGS"))))
	}
	os.Exit(m.Run())
}

func fakePosd() {
	fmt.Printf("posd %s slot %s trial %s args %q\n", os.Getenv("POS_SLOT_VERSION"), os.Getenv("POS_SLOT"), os.Getenv("POS_SLOT_TRIAL"), os.Args[1:])
	if os.Getenv("POSBOOT_FAKE") != "good" {
		os.Exit(7) // never healthy
	}
	b, ok := slot.BootedFromEnv()
	if !ok {
		fmt.Println("not started by posboot")
		os.Exit(1)
	}
	if err := b.MarkGood(nil); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	os.Exit(0)
}

// posboot runs the real launcher in a child process and returns what the posd it started
// printed and its exit status.
func posboot(t *testing.T, root, fake string) (string, int) {
	t.Helper()
	return posbootArgs(t, fake, "--root "+root+" --max-boots 2 -- --emulate")
}

// posbootArgs is posboot with the given arguments (space-separated).
func posbootArgs(t *testing.T, fake, args string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "POSBOOT_TEST=run", "POSBOOT_FAKE="+fake, "POSBOOT_ARGS="+args)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func TestBootTrialRollback(t *testing.T) {
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	key := bundletest.NewKey()
	root := t.TempDir()
	s, _ := slot.Open(root, slot.Options{})
	put := func(v string) {
		r, err := bundle.NewReader(bytes.NewReader(key.Build(bundletest.Spec{Version: v, Posd: self})), key.Trust())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Install(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := posboot(t, root, "good"); code != 3 || !strings.Contains(out, "no bootable slot") {
		t.Fatalf("empty root: exit %d\n%s", code, out)
	}
	put("1.0.0")
	out, code := posboot(t, root, "good")
	if code != 0 || !strings.Contains(out, `posd 1.0.0 slot a trial 1 args ["--emulate"]`) {
		t.Fatalf("first boot: exit %d\n%s", code, out)
	}
	if st, _ := s.State(); st.Trial {
		t.Fatalf("fake posd did not mark good: %+v", st)
	}
	put("2.0.0")
	for i := 0; i < 2; i++ {
		if out, code := posboot(t, root, "bad"); code != 7 || !strings.Contains(out, "posd 2.0.0 slot b trial 1") {
			t.Fatalf("trial start %d: exit %d\n%s", i, code, out)
		}
	}
	if out, code := posboot(t, root, "good"); code != 0 || !strings.Contains(out, "posd 1.0.0 slot a trial 0") {
		t.Fatalf("after 2 failed starts: exit %d\n%s", code, out)
	}
}
