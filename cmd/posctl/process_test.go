package main

import (
	"os"
	"os/exec"
	"testing"
)

// asPosctl, set in a child's environment, makes the test binary run posctl's main with
// the child's arguments: the tests see the real process (exit status, signals, closed
// pipes) without building a binary.
const asPosctl = "POSCTL_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asPosctl) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// posctlProcess returns a command running posctl with args in a child process.
func posctlProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(exe, args...)
	c.Env = append(os.Environ(), asPosctl+"=1")
	return c
}
