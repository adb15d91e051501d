package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCreateNew: a new file gets its content and the mode asked for (0666, which the
// usual umask would narrow), and its directory holds it alone.
func TestCreateNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	if err := CreateNew(path, 0o666, put("secret")); err != nil {
		t.Fatal(err)
	}
	wantOnly(t, dir, path, "secret", 0o666)
	other := filepath.Join(dir, "pub")
	if err := WriteNew(other, []byte("public"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(other); err != nil || string(b) != "public" {
		t.Fatalf("WriteNew: %q, %v", b, err)
	}
}

// TestCreateNewReplacesNothing: a file, a directory or a symbolic link (dangling, or to
// a file) at path fails the write with fs.ErrExist and is left exactly as it was; the
// link's target is not created or written.
func TestCreateNewReplacesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	dangling, target := filepath.Join(dir, "dangling"), filepath.Join(dir, "target")
	if err := os.Symlink(target, dangling); err != nil {
		t.Fatal(err)
	}
	toFile := filepath.Join(dir, "tofile")
	if err := os.Symlink(file, toFile); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, sub, dangling, toFile} {
		if err := CreateNew(p, 0o600, put("new")); !errors.Is(err, fs.ErrExist) {
			t.Errorf("%s: %v, want fs.ErrExist", filepath.Base(p), err)
		}
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "old" {
		t.Fatalf("the file was changed: %q, %v", b, err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the dangling link's target was created: %v", err)
	}
	if l, err := os.Readlink(dangling); err != nil || l != target {
		t.Fatalf("the link was changed: %q, %v", l, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		t.Fatalf("%d entries, want the 4 made by the test", len(ents))
	}
}

// TestCreateNewFailureAtEachStep: a create-new write failed at any step, or by its
// writer, is reported and leaves nothing at path (no empty or partial file), so that the
// same write can be made again; the hook sees each step once, in order, with its name.
func TestCreateNewFailureAtEachStep(t *testing.T) {
	for _, step := range CreateSteps() {
		t.Run(string(step), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "cred")
			cut := errors.New("cut at " + string(step))
			var seen []Step
			w := Writer{Fault: func(s Step, name string) error {
				seen = append(seen, s)
				if s == StepSyncDir && name != dir || s != StepSyncDir && name != path {
					t.Errorf("step %s names %q", s, name)
				}
				if s == step {
					return cut
				}
				return nil
			}}
			err := w.CreateNew(path, 0o600, put("a whole credential"))
			if !errors.Is(err, cut) {
				t.Fatalf("write failed at %s: %v", step, err)
			}
			if want := CreateSteps()[:slices.Index(CreateSteps(), step)+1]; !slices.Equal(seen, want) {
				t.Fatalf("steps %v, want %v", seen, want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Fatalf("%d files left after a failure at %s, want none", len(ents), step)
			}
			if err := CreateNew(path, 0o600, put("again")); err != nil {
				t.Fatalf("made again after a failure at %s: %v", step, err)
			}
			wantOnly(t, dir, path, "again", 0o600)
		})
	}
	t.Run("writer", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "cred")
		boom := errors.New("boom")
		half := func(w io.Writer) error { io.WriteString(w, "half"); return boom }
		if err := CreateNew(path, 0o600, half); !errors.Is(err, boom) {
			t.Fatalf("writer error: %v", err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("%d files left after a failing writer, want none", len(ents))
		}
		if err := CreateNew(path, 0o600, put("whole")); err != nil {
			t.Fatalf("made again: %v", err)
		}
		wantOnly(t, dir, path, "whole", 0o600)
	})
}
