package emulated

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// TestDemoCodesIncludeTicket: the codes to try include a ticket code (ITF, the barcode on
// a ticket's back), which the terminal answers with its hint; a demo made before they had
// one gets it when loaded.
func TestDemoCodesIncludeTicket(t *testing.T) {
	def, err := game.ParseSource([]byte(tinyDefinition))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	d, err := MakeDemo(context.Background(), dir, def, 5, 150_00, nil)
	if err != nil {
		t.Fatal(err)
	}
	ticket := func(cs []DemoCode) string {
		t.Helper()
		for _, c := range cs {
			if c.What == "ticket" {
				if k, _, err := codes.Parse(c.Code); err != nil || k != codes.KindTicket || c.Alias() != "ticket" {
					t.Errorf("ticket code %q: kind %v, %v, alias %q", c.Code, k, err, c.Alias())
				}
				return c.Code
			}
		}
		t.Fatalf("no ticket code among %+v", cs)
		return ""
	}
	code := ticket(d.Codes)

	trust, err := ledger.LoadTrustStore(d.Pub)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.OpenFile(d.Ledger, trust)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	e := rigOn(t, &testBlock{ledger: l}, Options{Dir: t.TempDir(), AllDelivered: true, Aliases: d.Aliases()})
	defer e.rig.Close()
	e.do("@ticket")
	e.expect("GRATTEZ")

	// A demo-codes.json written before: no ticket code; loading it adds the loser's.
	var old []DemoCode
	for _, c := range d.Codes {
		if c.What != "ticket" {
			old = append(old, c)
		}
	}
	b, _ := json.Marshal(old)
	if err := os.WriteFile(filepath.Join(dir, DemoFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadDemo(dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := ticket(loaded.Codes); got != code {
		t.Errorf("ticket code of an older demo %q, want the loser's %q", got, code)
	}
}
