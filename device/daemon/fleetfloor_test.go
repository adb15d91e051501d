package daemon

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/journal"
)

// Issue 47, online: the retailer with root puts the data directory back whole from a copy
// made before pack status list 2 was installed over the link (journal, list 1 and the
// fleet client's state file together): the journal names list 1 as the newest, so the
// start alone accepts it. The fleet holds the list 2 install the terminal published: once
// the fleet has answered, a code scanned is refused (LISTE DES PAQUETS) and nothing is
// paid. Before, the winner was judged on list 1 (its claim then refused as a restored
// journal's).
func TestRestoredDataDirHeldToTheFleetsFloors(t *testing.T) {
	tb := newTestBlock(t, 11)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	f := newTestFleet(t, tb, map[string]uint32{"T-1": 1})
	b.cfg.Fleet.URL, b.cfg.Fleet.Credentials = f.srv.URL(), f.seeds["T-1"]
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	o := Options{RestartQuiet: 200 * time.Millisecond}
	install := func(version uint64) {
		t.Helper()
		d := b.start(t, o)
		if res, err := sendFile(t, tcpClient(d.r.Maintenance, testToken), flash.Status, tb.statusList(t, 1, version)); err != nil {
			t.Fatalf("list %d: %+v %v", version, res, err)
		}
		if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
			t.Fatalf("Run returned %v, want a restart", err)
		}
	}
	install(1)
	cp := filepath.Join(t.TempDir(), "copy")
	copyDir(t, b.cfg.DataDir, cp)
	install(2)
	d := b.start(t, o)
	wait(t, "the list 2 install in the JOURNAL stream", func() bool {
		m, err := f.stores.Journal.GetLastMsgForSubject(context.Background(), "journal.T-1."+journal.KindStatusInstall.String())
		if err != nil {
			return false
		}
		r, err := fleet.DecodeJournalMsg(m.Subject, m.Data)
		return err == nil && strings.Contains(r.Detail, "version 2")
	})
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}

	if err := os.RemoveAll(b.cfg.DataDir); err != nil {
		t.Fatal(err)
	}
	copyDir(t, cp, b.cfg.DataDir)
	d = b.start(t, o)
	wait(t, "the fleet's floors", func() bool { return d.r.Fleet.InstallFloors().Status == 2 })
	_, code := tb.winner(t, func(lot int64) bool { return lot > 0 && lot <= 5_00 })
	d.scan(b, code, "LISTE DES PAQUETS")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindPayout] != 0 {
		t.Fatalf("paid on the copy's list: %v", k)
	}
}

// copyDir copies the directory src to dst (which must not exist), modes and times kept,
// as a retailer's backup does.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
}
