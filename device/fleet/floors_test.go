package fleet_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/floors"
	"github.com/packterm/pos/internal/strictjson"
	"github.com/packterm/pos/validate/journal"
)

// Issue 47, online: the fleet answers the install floors of every install record the
// terminal published, whatever its journal's epoch, and the client keeps them. A terminal
// installs list 1 then 2, a ledger, and its operator key, limits and firmware key
// statements, all published; its journal is then started afresh (or put back from a copy
// made before: the same floors are asked at each connection) and knows only list 1. At
// its next connection the client has the fleet's floors, and still has them offline from
// its state file.
func TestInstallFloorsFromTheFleet(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	ctx := context.Background()
	first := f.terminal(t, "T000", f.urls[0], nil)
	for _, e := range []journal.Entry{
		{Kind: journal.KindStatusInstall, Detail: "status installed: version 1 (maintenance link)"},
		{Kind: journal.KindStatusInstall, Detail: "version 2, was 1 (fleet)"},
		{Kind: journal.KindLedgerInstall, Detail: "ledger installed: block 7, version 3 (was 2)"},
		{Kind: journal.KindConfigChange, Detail: "keys: operator keys installed: statement version 2 (was 1), keys [a], signed by b"},
		{Kind: journal.KindConfigChange, Detail: "keys: operator limits installed: statement version 5 (was 4), for retailer 100"},
		{Kind: journal.KindConfigChange, Detail: "keys: firmware keys installed: statement version 4 (was 3); in force at the next start"},
		{Kind: journal.KindConfigChange, Detail: "config installed (maintenance link): no setting changed"},
	} {
		if _, err := first.j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	waitOnline(t, first.c)
	if err := first.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	first.c.Close()
	first.j.Close()

	again := f.terminal(t, "T000", f.urls[0], nil) // a journal started afresh: another epoch
	if _, err := again.j.Append(journal.Entry{Kind: journal.KindStatusInstall, Detail: "status installed: version 1 (maintenance link)"}); err != nil {
		t.Fatal(err)
	}
	if got := again.c.InstallFloors(); !got.Equal(floors.Floors{}) {
		t.Fatalf("floors before the fleet's answer: %+v", got)
	}
	waitOnline(t, again.c)
	if err := again.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	want := floors.Floors{Status: 2, HadStatus: true, Ledgers: map[uint16]uint64{7: 3}, OperatorKeys: 2, Limits: 5, FirmwareKeys: 4}
	if got := again.c.InstallFloors(); !got.Equal(want) {
		t.Fatalf("floors from the fleet %+v, want %+v", got, want)
	}
	again.c.Close()

	offline, err := fleet.Connect(fleet.Options{Terminal: "T000", URL: "nats://" + freePort(t), Credentials: f.seeds["T000"],
		Journal: again.j, StateDir: again.dir, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer offline.Close()
	if got := offline.InstallFloors(); !got.Equal(want) {
		t.Fatalf("floors offline, from the state file: %+v, want %+v", got, want)
	}
}

// A service older than the floors refuses a head request that asks for them (strict
// JSON): the client asks again without them, so the terminal still publishes, and has no
// fleet floors until the next connection. Before, every head failed and nothing was
// published (Sync stopped at the head).
func TestFloorsFromAnOlderService(t *testing.T) {
	f := newRegistry(t, 1)
	f.startNodes(t, 1, nil)
	var asked []string
	var mu sync.Mutex
	sub, err := f.op.Subscribe(fleet.HeadPrefix+"*", func(m *nats.Msg) {
		mu.Lock()
		asked = append(asked, string(m.Data))
		mu.Unlock()
		var req struct { // an older service's request
			Epoch string `json:"epoch,omitempty"`
			Seq   uint64 `json:"seq"`
			Hash  string `json:"hash,omitempty"`
		}
		if err := strictjson.Unmarshal(m.Data, &req); err != nil {
			r := nats.NewMsg(m.Reply)
			r.Header.Set(fleet.ErrorHeader, "bad message: head request: "+err.Error())
			m.RespondMsg(r)
			return
		}
		m.Respond([]byte(`{"seq":0}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	term := f.terminal(t, "T000", f.urls[0], nil)
	waitOnline(t, term.c)
	// Only the head is answered here: Sync goes on past it (to the conflicts, which no one
	// answers) once the head passed.
	if err := term.c.Sync(context.Background()); err == nil || strings.Contains(err.Error(), "fleet: head") {
		t.Fatalf("sync with an older service: %v, want past the head", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 || !strings.Contains(asked[0], `"floors":true`) || strings.Contains(asked[1], "floors") {
		t.Fatalf("head requests %q, want one with floors then one without", asked)
	}
	if got := term.c.InstallFloors(); !got.Equal(floors.Floors{}) {
		t.Fatalf("floors from an older service: %+v", got)
	}
}
