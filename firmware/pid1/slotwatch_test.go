package pid1

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestWatchSlots: each change of the state file is logged once; a malformed one is not.
func TestWatchSlots(t *testing.T) {
	root := t.TempDir()
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(root, "state"), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"active":"b","previous":"a","trial":true,"boots":1,"high_water":"1.0.1"}`)
	var out syncBuf
	clk := clockwork.NewFakeClock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		WatchSlots(ctx, root, time.Second, clk, slog.New(slog.NewTextHandler(&out, nil)))
	}()
	// each step lets the watcher read the file once and wait again
	wait := func() {
		if err := clk.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	step := func() { clk.Advance(time.Second); wait() }
	wait()
	write(`{"active":"b","previous":"a","high_water":"1.0.1"}`)
	step()
	write(`{"active":"x"`)
	step()
	step()
	cancel()
	<-done
	s := out.String()
	if strings.Count(s, `msg="slot state"`) != 2 || !strings.Contains(s, "active=b previous=a trial=true boots=1") ||
		!strings.Contains(s, "active=b previous=a trial=false boots=0") {
		t.Fatalf("log:\n%s", s)
	}
}
