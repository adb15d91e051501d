package server

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nats-io/nkeys"
)

func TestRegistry(t *testing.T) {
	dir := t.TempDir()
	reg, err := InitData(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, OperatorSeedFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("operator seed: %v %v", st, err)
	}
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	reg.Terminals = append(reg.Terminals, Terminal{ID: "T1", Retailer: 4, NKey: pub})
	if err := SaveRegistry(dir, reg); err != nil {
		t.Fatal(err)
	}
	again, err := InitData(dir) // a second start keeps the key and the terminals
	if err != nil || again.Operator != reg.Operator || len(again.Terminals) != 1 {
		t.Fatalf("second InitData: %+v %v", again, err)
	}
	for _, bad := range []Registry{
		{Operator: reg.Operator, Terminals: []Terminal{{ID: "T1", NKey: pub}, {ID: "T1", NKey: reg.Operator}}},
		{Operator: reg.Operator, Terminals: []Terminal{{ID: "a.b", NKey: pub}}},
		{Operator: reg.Operator, Terminals: []Terminal{{ID: "T2", NKey: "SUABC"}}},
		{Operator: "x"},
	} {
		if bad.Check() == nil {
			t.Errorf("registry accepted: %+v", bad)
		}
	}
	p := TerminalPermissions("T1")
	if !slices.Contains(p.Publish.Allow, "journal.T1.>") || len(p.Subscribe.Allow) != 1 || p.Subscribe.Allow[0] != "_INBOX_T1.>" {
		t.Fatalf("permissions %+v", p)
	}
	for _, s := range p.Publish.Allow {
		if s == ">" || s == "$KV.>" || s == "journal.>" {
			t.Fatalf("terminal may publish %s", s)
		}
	}
}
