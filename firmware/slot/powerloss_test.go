package slot_test

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/packterm/pos/firmware/bundle/bundletest"
)

var errPowerCut = errors.New("power cut")

// goodV1 makes a root with 1.0.0 installed, booted and marked good.
func goodV1(t *testing.T, v1 []byte) string {
	root := t.TempDir()
	s := open(t, root)
	if _, err := install(t, s, v1); err != nil {
		t.Fatal(err)
	}
	boot(t, s)
	if err := s.MarkGood(); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestPowerLossAtEveryStep cuts the install of 2.0.0 over a good 1.0.0 at each of its
// writes in turn; then, for each file the install touched, also truncates it (to nothing
// and to half, as a cut before the data reached the card would). Each time the terminal
// must boot a slot whose files match their manifest, and after the trial starts run out
// without MarkGood it must be back on 1.0.0, whose slot the install never touches.
// With -short the truncations are tried at every fourth cut only.
func TestPowerLossAtEveryStep(t *testing.T) {
	v1 := key.Build(bundletest.Spec{Version: "1.0.0"})
	posd2 := make([]byte, 150<<10) // three 64 KiB writes
	rand.Read(posd2)
	v2 := key.Build(bundletest.Spec{Version: "2.0.0", Posd: posd2})

	// Count the writes of a whole install.
	steps := 0
	s := open(t, goodV1(t, v1))
	s.SetFault(func(string, string) error { steps++; return nil })
	if _, err := install(t, s, v2); err != nil {
		t.Fatal(err)
	}
	if steps < 20 {
		t.Fatalf("only %d steps counted", steps)
	}
	runs := 0
	for k := 1; k <= steps; k++ {
		root := goodV1(t, v1)
		s := open(t, root)
		touched := map[string]bool{}
		i := 0
		s.SetFault(func(op, path string) error {
			i++
			if i == k {
				return errPowerCut
			}
			touched[path] = true
			return nil
		})
		if _, err := install(t, s, v2); !errors.Is(err, errPowerCut) {
			t.Fatalf("step %d: install: %v", k, err)
		}
		variants := []func(string){func(string) {}}
		// -short (the qemu runs): truncations at every fourth cut only.
		for _, p := range sortedFiles(root, touched) {
			if testing.Short() && k%4 != 0 {
				break
			}
			variants = append(variants,
				func(r string) { os.Truncate(filepath.Join(r, p), 0) },
				func(r string) {
					st, _ := os.Stat(filepath.Join(r, p))
					os.Truncate(filepath.Join(r, p), st.Size()/2)
				})
		}
		for vi, cut := range variants {
			r := copyTree(t, root)
			cut(r)
			checkBootable(t, r, k, vi)
			runs++
		}
	}
	t.Logf("%d install steps, %d power-cut variants booted", steps, runs)
}

// sortedFiles lists, relative to root, the touched paths that are regular files now.
func sortedFiles(root string, touched map[string]bool) []string {
	var out []string
	for p := range touched {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

func checkBootable(t *testing.T, root string, k, variant int) {
	t.Helper()
	s := open(t, root)
	for start := 1; start <= 5; start++ {
		c, err := s.Boot()
		if err != nil {
			t.Fatalf("step %d variant %d start %d: no boot: %v", k, variant, start, err)
		}
		if _, err := s.Verify(c.Slot); err != nil {
			t.Fatalf("step %d variant %d: booted a bad slot: %v", k, variant, err)
		}
		if v := c.Version.String(); v != "1.0.0" && v != "2.0.0" {
			t.Fatalf("step %d variant %d: version %s", k, variant, v)
		}
		if start == 5 && c.Version.String() != "1.0.0" {
			t.Fatalf("step %d variant %d: still on %s after 5 starts without MarkGood", k, variant, c.Version)
		}
	}
}

// copyTree copies root into a new temporary directory (the truncation variants each get
// their own copy).
func copyTree(t *testing.T, root string) string {
	dst := t.TempDir()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st, _ := d.Info()
		return os.WriteFile(filepath.Join(dst, rel), b, st.Mode().Perm())
	})
	return dst
}
