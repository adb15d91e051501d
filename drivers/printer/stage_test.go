package printer_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/spooltest"
)

func stageFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "stage-") || strings.HasPrefix(e.Name(), "tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

func openFault(t *testing.T, dir string, f *spooltest.FaultFS) *printer.Spool {
	t.Helper()
	s, err := printer.OpenSpool(dir, printer.SpoolOptions{FS: f, Headroom: -1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStageFullOrReadOnly: on a full or read-only filesystem Stage fails with ErrSpool and
// leaves nothing (nothing listed, no staged file); once the fault clears, receipts stage
// and commit in order.
func TestStageFullOrReadOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(f *spooltest.FaultFS, on bool)
	}{
		{"full", (*spooltest.FaultFS).SetFull},
		{"read-only", (*spooltest.FaultFS).SetReadOnly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, f := t.TempDir(), &spooltest.FaultFS{}
			s := openFault(t, dir, f)
			tc.set(f, true)
			if _, err := s.Stage([]printer.Staging{{ID: "A", Data: []byte("a")}, {ID: "B", Data: []byte("b")}}); !errors.Is(err, printer.ErrSpool) {
				t.Fatalf("stage: %v, want ErrSpool", err)
			}
			if err := s.Check(); !errors.Is(err, printer.ErrSpool) {
				t.Fatalf("check: %v", err)
			}
			if _, err := s.Put("C", []byte("c")); !errors.Is(err, printer.ErrSpool) {
				t.Fatalf("put: %v", err)
			}
			tc.set(f, false)
			if l, _ := s.List(); len(l) != 0 || len(stageFiles(t, dir)) != 0 {
				t.Fatalf("left behind: %v, %v", l, stageFiles(t, dir))
			}
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			st, err := s.Stage([]printer.Staging{{ID: "A", Data: []byte("a")}, {ID: "B", Data: []byte("b")}})
			if err != nil {
				t.Fatal(err)
			}
			if l, _ := s.List(); len(l) != 0 {
				t.Fatalf("staged receipts listed before Commit: %v", l)
			}
			if _, err := st.Commit(); err != nil {
				t.Fatal(err)
			}
			l, err := s.List()
			if err != nil || len(l) != 2 || l[0].ID != "A" || l[1].ID != "B" {
				t.Fatalf("after commit: %v %v", l, err)
			}
		})
	}
}

// TestStageHeadroom: staging that would leave less than the headroom free is refused
// (ErrSpoolFull), nothing left behind.
func TestStageHeadroom(t *testing.T) {
	dir := t.TempDir()
	s, err := printer.OpenSpool(dir, printer.SpoolOptions{Headroom: 1 << 62})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stage([]printer.Staging{{ID: "A", Data: []byte("a")}}); !errors.Is(err, printer.ErrSpoolFull) || !errors.Is(err, printer.ErrSpool) {
		t.Fatalf("stage: %v, want ErrSpoolFull", err)
	}
	if len(stageFiles(t, dir)) != 0 {
		t.Fatal(stageFiles(t, dir))
	}
}

// TestStagedNotCommittedNeverPrints: receipts staged and never committed (a crash before
// the record they belong to was written) are removed at the next open, never listed.
func TestStagedNotCommittedNeverPrints(t *testing.T) {
	dir := t.TempDir()
	s := openFault(t, dir, &spooltest.FaultFS{})
	if _, err := s.Put("KEPT", []byte("k")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stage([]printer.Staging{{ID: "LOST", Data: []byte("l")}}); err != nil {
		t.Fatal(err)
	}
	s = openFault(t, dir, &spooltest.FaultFS{})
	l, err := s.List()
	if err != nil || len(l) != 1 || l[0].ID != "KEPT" {
		t.Fatalf("after the crash: %v %v", l, err)
	}
	if len(stageFiles(t, dir)) != 0 {
		t.Fatal(stageFiles(t, dir))
	}
}

// TestRemoveReadOnly: a printed receipt whose file cannot be removed is not listed again
// (it would print at every flush) and the failure wraps ErrSpool; it is removed once the
// spool is writable.
func TestRemoveReadOnly(t *testing.T) {
	dir, f := t.TempDir(), &spooltest.FaultFS{}
	s := openFault(t, dir, f)
	seq, err := s.Put("A", []byte("a"))
	if err != nil {
		t.Fatal(err)
	}
	f.SetReadOnly(true)
	if err := s.Remove(seq); !errors.Is(err, printer.ErrSpool) {
		t.Fatalf("remove: %v", err)
	}
	if l, _ := s.List(); len(l) != 0 {
		t.Fatalf("printed receipt listed again: %v", l)
	}
	f.SetReadOnly(false)
	if _, err := s.Put("B", []byte("b")); err != nil {
		t.Fatal(err)
	}
	l, _ := s.List()
	if len(l) != 1 || l[0].ID != "B" {
		t.Fatalf("list: %v", l)
	}
	if err := s.Remove(l[0].Seq); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left: %v", ents)
	}
}

// BenchmarkStageCommit: two receipts (a payout's) staged, then queued, then removed as
// printed: the spool's share of a payout's time (three fsyncs of files, three of the
// directory, on the test's filesystem).
func BenchmarkStageCommit(b *testing.B) {
	s, err := printer.OpenSpool(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	data := make([]byte, 3000)
	for b.Loop() {
		st, err := s.Stage([]printer.Staging{{ID: "J", Data: data}, {ID: "C", Data: data}})
		if err != nil {
			b.Fatal(err)
		}
		seqs, err := st.Commit()
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range seqs {
			if err := s.Remove(q); err != nil {
				b.Fatal(err)
			}
		}
	}
}
