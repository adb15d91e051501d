package daemon

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/internal/syncbuf"
)

// TestFirstBootSaysWhatIsMissing: a terminal fresh from its image (operator keys, no
// ledger, no pack status list) says at start on its panel what to install, and its log
// says it too; the technician provisions both over the maintenance link, and after the
// restart at rest the panel says SCANNEZ UN CODE.
func TestFirstBootSaysWhatIsMissing(t *testing.T) {
	tb := newTestBlock(t, 6)
	b := newBoard(t, tb)
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	var log syncbuf.Buffer
	o := Options{RestartQuiet: 300 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&log, nil))}
	d := b.start(t, o)
	if want := retail.MissingLedger | retail.MissingStatus; d.r.Data.Missing != want {
		t.Fatalf("missing %v, want %v", d.r.Data.Missing, want)
	}
	d.expect("À INSTALLER", "REGISTRE", "LISTE DES PAQUETS")
	if s := log.String(); !strings.Contains(s, "not provisioned") || !strings.Contains(s, `missing="ledger, pack status list"`) {
		t.Errorf("the start log does not say what is missing:\n%s", s)
	}
	d.scan(b, packCode(1), "PAS DE REGISTRE")
	d.press(b, "À INSTALLER") // back at rest, it still says so

	c := tcpClient(d.r.Maintenance, testToken)
	if res, err := sendFile(t, c, flash.Ledger, tb.ledger); err != nil || !strings.Contains(res.Message, "ledger installed") {
		t.Fatalf("ledger over the link: %+v %v", res, err)
	}
	if res, err := sendFile(t, c, flash.Status, tb.statusList(t, 1, 1)); err != nil || !strings.Contains(res.Message, "status installed") {
		t.Fatalf("status list over the link: %+v %v", res, err)
	}
	if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
		t.Fatalf("after provisioning, Run returned %v; want a restart", err)
	}
	d = b.start(t, o)
	if d.r.Data.Missing != 0 {
		t.Fatalf("still missing %v", d.r.Data.Missing)
	}
	d.expect("SCANNEZ UN CODE")
	if s := strings.Join(d.r.Terminal.Screen(), " / "); strings.Contains(s, "INSTALLER") {
		t.Errorf("provisioned, the panel still says %q", s)
	}
	d.scan(b, packCode(1), "PRIX 10,00 €")
	d.press(b, "VENDU")
}

// TestFirstBootWithoutOperatorKeys: a terminal whose [keys] operator holds no key (an empty
// directory: the image brings none) names the operator keys first; the link refuses a
// ledger (it never brings the first keys), and the panel still says so.
func TestFirstBootWithoutOperatorKeys(t *testing.T) {
	tb := newTestBlock(t, 6)
	b := newBoard(t, tb)
	b.cfg.Keys.Operator = []string{t.TempDir()}
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	d := b.start(t, Options{RestartQuiet: 300 * time.Millisecond})
	if d.r.Data.Missing != retail.AllMissing {
		t.Fatalf("missing %v, want everything", d.r.Data.Missing)
	}
	d.expect("À INSTALLER", "CLÉS OPÉRATEUR", "REGISTRE", "LISTE DES PAQUETS")
	if _, err := sendFile(t, tcpClient(d.r.Maintenance, testToken), flash.Ledger, tb.ledger); !errors.Is(err, flash.ErrRefused) {
		t.Fatalf("a ledger without operator keys: %v", err)
	}
	d.expect("À INSTALLER", "CLÉS OPÉRATEUR")
}
