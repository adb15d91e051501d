package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func put(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func accept(string) error { return nil }

// wantOnly checks that dir holds path alone, with content and mode.
func wantOnly(t *testing.T, dir, path, content string, mode os.FileMode) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || string(b) != content {
		t.Fatalf("content %q, %v; want %q", b, err, content)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != mode {
		t.Fatalf("mode %v, want %v", st.Mode().Perm(), mode)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files left in the directory, want 1", len(ents))
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := Write(path, 0o600, put("one"), nil); err != nil {
		t.Fatal(err)
	}
	wantOnly(t, dir, path, "one", 0o600)
	if err := WriteFile(path, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantOnly(t, dir, path, "two", 0o644)
	// A failing writer or a refusing check leaves the old file and no temporary file.
	boom := errors.New("boom")
	if err := Write(path, 0o600, func(io.Writer) error { return boom }, nil); !errors.Is(err, boom) {
		t.Fatalf("writer error: %v", err)
	}
	if err := Write(path, 0o600, put("three"), func(string) error { return boom }); err != boom {
		t.Fatalf("check error not returned as it is: %v", err)
	}
	wantOnly(t, dir, path, "two", 0o644)
}

// TestFailureAtEachStep: a write failed at any step before the rename leaves the old file
// whole (content and mode) and no temporary file; failed at the directory's fsync, after
// the rename, it is reported and the new file is whole in place (never a mix).
func TestFailureAtEachStep(t *testing.T) {
	for _, step := range Steps() {
		t.Run(string(step), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state")
			if err := WriteFile(path, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			cut := errors.New("cut at " + string(step))
			w := Writer{Fault: func(s Step, _ string) error {
				if s == step {
					return cut
				}
				return nil
			}}
			err := w.Write(path, 0o644, put("new, longer"), accept)
			if !errors.Is(err, cut) {
				t.Fatalf("write failed at %s: %v", step, err)
			}
			if step == StepSyncDir {
				wantOnly(t, dir, path, "new, longer", 0o644)
				return
			}
			wantOnly(t, dir, path, "old", 0o600)
		})
	}
}

// TestDirectorySynced: every write fsyncs the target's directory, after the rename; the
// hook sees each step once, in order, with the name it acts on.
func TestDirectorySynced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state")
	var steps []Step
	var names []string
	w := Writer{Fault: func(s Step, name string) error {
		steps, names = append(steps, s), append(names, name)
		return nil
	}}
	if err := w.Write(path, 0o600, put("x"), accept); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(steps, Steps()) {
		t.Fatalf("steps %v, want %v", steps, Steps())
	}
	if names[0] != dir || names[5] != path || names[6] != dir || filepath.Dir(names[1]) != dir || names[1] == path {
		t.Fatalf("names %q", names)
	}
	// Without a check the check step is not taken; Commit of a staged file syncs too.
	steps = nil
	tmp, err := w.Stage(path, 0o600, put("y"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(tmp, path); err != nil {
		t.Fatal(err)
	}
	want := slices.DeleteFunc(Steps(), func(s Step) bool { return s == StepCheck })
	if !slices.Equal(steps, want) || steps[len(steps)-1] != StepSyncDir {
		t.Fatalf("stage and commit: steps %v, want %v", steps, want)
	}
	wantOnly(t, dir, path, "y", 0o600)
}

// TestRealFailures: failures of the system, not of the hook: a missing directory, a
// rename over a directory; the target is left as it was.
func TestRealFailures(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(filepath.Join(dir, "missing", "f"), []byte("x"), 0o600); err == nil {
		t.Fatal("write into a missing directory: no error")
	}
	target := filepath.Join(dir, "d")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "inside"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("x"), 0o600); err == nil {
		t.Fatal("rename over a non-empty directory: no error")
	}
	if st, err := os.Stat(target); err != nil || !st.IsDir() {
		t.Fatalf("target changed: %v %v", st, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d entries left, want the directory alone", len(ents))
	}
}
