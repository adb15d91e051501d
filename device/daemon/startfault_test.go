package daemon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartFaultOnPanel: a data tree the journal cannot be opened in (here "journal" is a
// file, as a read-only or damaged tree leaves it) is said on the panel, DÉMARRAGE
// IMPOSSIBLE with the red LED, before Run returns the error and posd exits. Before, posd
// exited with the panel blank.
func TestStartFaultOnPanel(t *testing.T) {
	tb := newTestBlock(t, 5)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	must(t, os.WriteFile(filepath.Join(b.cfg.DataDir, "journal"), []byte("not a folder"), 0o600))
	var shown []string
	cfg := b.cfg
	err := Run(context.Background(), &cfg, Options{StartFault: func(lines []string) { shown = lines }})
	if err == nil {
		t.Fatal("the daemon started on a data tree without a journal folder")
	}
	if got := strings.Join(shown, " / "); !strings.Contains(got, "DÉMARRAGE IMPOSSIBLE") || !strings.Contains(got, "APPELEZ LE SUPPORT") {
		t.Errorf("panel %q", got)
	}
}
