// Package installtest races installs against each other in tests: every install path
// must end, whatever the interleaving, on the highest version an install reported
// installed (issue 30: concurrent installs rolled back).
package installtest

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// Race describes one install path's trials.
type Race struct {
	// Versions are the versions installed concurrently in trial i, each by
	// Install(j, dir, Versions(i)[j]) in its own goroutine; an error is a refusal (Refused
	// says which are expected).
	Versions func(trial int) []uint64
	// Setup prepares a trial's empty directory (e.g. an older version installed).
	Setup func(dir string) error
	// Install installs version v into dir.
	Install func(j int, dir string, v uint64) error
	// Refused tells the refusals a losing install may give (e.g. ErrOlderVersion).
	Refused func(error) bool
	// Installed reads the version installed in dir.
	Installed func(dir string) (uint64, error)
}

// Run runs trials trials of r in fresh directories under a temporary directory (in
// memory when /dev/shm is there) and fails t for each trial whose installed version is
// not the highest one reported installed. It returns the number of such rollbacks.
func Run(t testing.TB, trials int, r Race) int {
	t.Helper()
	base := TempDir(t)
	rollbacks := 0
	for i := range trials {
		dir := filepath.Join(base, strconv.Itoa(i))
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := r.Setup(dir); err != nil {
			t.Fatalf("trial %d: setup: %v", i, err)
		}
		versions := r.Versions(i)
		ok := make([]bool, len(versions))
		var wg sync.WaitGroup
		for j, v := range versions {
			wg.Go(func() {
				err := r.Install(j, dir, v)
				if err != nil && !r.Refused(err) {
					t.Errorf("trial %d: install v%d: %v", i, v, err)
				}
				ok[j] = err == nil
			})
		}
		wg.Wait()
		var highest uint64
		for j, v := range versions {
			if ok[j] {
				highest = max(highest, v)
			}
		}
		got, err := r.Installed(dir)
		if err != nil {
			t.Fatalf("trial %d: installed: %v", i, err)
		}
		if got != highest {
			rollbacks++
			t.Errorf("trial %d: v%d installed after v%d was reported installed", i, got, highest)
		}
		os.RemoveAll(dir)
	}
	if rollbacks > 0 {
		t.Errorf("%d rollbacks in %d trials", rollbacks, trials)
	}
	return rollbacks
}

// TempDir is a temporary directory in memory (/dev/shm) when there is one: the trials
// fsync every file they install, which on a disk makes them slow for nothing (what they
// check is the order of the renames, not their durability).
func TempDir(t testing.TB) string {
	t.Helper()
	if st, err := os.Stat("/dev/shm"); err != nil || !st.IsDir() {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("/dev/shm", "install-race-*")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
