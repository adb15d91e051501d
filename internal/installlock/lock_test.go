package installlock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestGoroutinesExclude: many goroutines taking the lock of one directory are never
// inside together.
func TestGoroutinesExclude(t *testing.T) {
	dir := t.TempDir()
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 50 {
				err := Do(context.Background(), dir, func() error {
					n := inside.Add(1)
					if n > most.Load() {
						most.Store(n)
					}
					inside.Add(-1)
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d holders at once", most.Load())
	}
}

// TestTryAcquire: a held lock is busy, also to a second descriptor of the same process
// and through another name of the directory; it is free again once released.
func TestTryAcquire(t *testing.T) {
	dir := t.TempDir()
	l, err := TryAcquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryAcquire(filepath.Join(dir, ".", "")); !errors.Is(err, ErrBusy) {
		t.Fatalf("second TryAcquire: %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Acquire(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Fatalf("Acquire with a cancelled context: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("second Release: %v", err)
	}
	l, err = TryAcquire(dir)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l.Release()
}

// TestNotARegularFile: a link or a FIFO planted at the lock file's name is refused.
func TestNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if l, err := TryAcquire(dir); err == nil {
		l.Release()
		t.Fatal("locked through a symbolic link")
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the link's target was created")
	}
}

// TestOtherProcessExcludes: a lock held by another process (this test binary run again)
// is busy here until that process releases it; a waiter gets it then.
func TestOtherProcessExcludes(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldLock$")
	cmd.Env = append(os.Environ(), "INSTALLLOCK_HOLD="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper: %q, %v", line, err)
	}
	if _, err := TryAcquire(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("TryAcquire while another process holds the lock: %v", err)
	}
	got := make(chan error, 1)
	go func() {
		l, err := Acquire(context.Background(), dir)
		if err == nil {
			l.Release()
		}
		got <- err
	}()
	stdin.Close() // the helper releases and exits
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// TestHelperHoldLock is the other process of TestOtherProcessExcludes.
func TestHelperHoldLock(t *testing.T) {
	dir := os.Getenv("INSTALLLOCK_HOLD")
	if dir == "" {
		t.Skip("helper process only")
	}
	l, err := Acquire(context.Background(), dir)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
	l.Release()
	os.Exit(0)
}

// TestGivenUpWaiterTakesNothing: a waiter whose context ended leaves nothing behind that
// could take the lock when its holder releases it (before, a flock(2) left blocked in a
// goroutine took it, and a TryAcquire right after the release was refused: CI saw it).
func TestGivenUpWaiterTakesNothing(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		l, err := TryAcquire(dir)
		if err != nil {
			t.Fatal(i, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Millisecond)
		if _, err := Acquire(ctx, dir); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%d: Acquire of a held lock: %v", i, err)
		}
		cancel()
		if err := l.Release(); err != nil {
			t.Fatal(i, err)
		}
		l, err = TryAcquire(dir)
		if err != nil {
			t.Fatalf("%d: TryAcquire after the holder released and the waiter gave up: %v", i, err)
		}
		l.Release()
	}
}
