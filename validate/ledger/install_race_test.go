package ledger

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// TestInstallSourceRewritten: the source file is rewritten in place, over and over, between
// a version 5 and a version 1 of the same block while installs run. Whatever an install
// read, the terminal must never hold a lower version than 5 once 5 is installed, and an
// install that reports success must have installed exactly the version it reports.
func TestInstallSourceRewritten(t *testing.T) {
	pub, priv := testKey(t)
	trust := NewTrustStore(pub)
	b := newTestBlock(t, 42, 10000, 21)
	version := func(v uint64) []byte {
		h := b.h
		h.Version = v
		d, err := Marshal(h, b.entries, priv)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	v5, v1 := version(5), version(1)
	src, dir := filepath.Join(t.TempDir(), "src.ledger"), t.TempDir()
	if err := os.WriteFile(src, v5, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(dir, src, trust); err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join(dir, FileName(42))
	ok := 0
	rewriteWhileInstalling(t, src, [][]byte{v1, v5}, 120, func() {
		res, err := Install(dir, src, trust)
		l, oerr := OpenFile(installed, trust)
		if oerr != nil {
			t.Fatalf("installed ledger does not verify: %v", oerr)
		}
		got := l.Header().Version
		l.Close()
		if got != 5 {
			t.Fatalf("rollback: installed version %d after an install (%+v, %v)", got, res, err)
		}
		if err == nil {
			ok++
			if res.Version != got {
				t.Fatalf("install reports version %d, installed %d", res.Version, got)
			}
		} else if !errors.Is(err, ErrOlderVersion) && !errors.Is(err, ErrHash) && !errors.Is(err, ErrBadSignature) && !errors.Is(err, ErrFormat) {
			t.Fatalf("install: %v", err)
		}
	})
	t.Logf("%d installs went through", ok)
}

// rewriteWhileInstalling calls install runs times (fewer with -short or -race) while a
// goroutine rewrites src in place (same inode, as a second writer would), cycling through
// versions (files of one size). Only the bytes where the versions differ (the header and
// signature) are rewritten, so that the source flips between whole versions quickly.
// install may call t.Fatal: the writer is stopped first.
func rewriteWhileInstalling(t *testing.T, src string, versions [][]byte, runs int, install func()) {
	t.Helper()
	n := 0
	for i := range versions[0] {
		for _, v := range versions[1:] {
			if v[i] != versions[0][i] {
				n = i + 1
			}
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f, err := os.OpenFile(src, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for i := 0; !stop.Load(); i++ {
			f.WriteAt(versions[i%len(versions)][:n], 0)
		}
	}()
	defer wg.Wait()
	defer stop.Store(true)
	if testing.Short() || raceEnabled {
		runs = 15
	}
	for range runs {
		install()
	}
}
