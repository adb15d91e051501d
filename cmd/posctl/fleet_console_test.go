package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet/console"
	"github.com/packterm/pos/internal/syncbuf"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// TestFleetServeConsole: posctl fleet serve --console --manifest prints the console's
// address and token file (0600); with the token, the settlement page flags the loser
// that terminal R1 paid and journalled beside a genuine, claimed payout; the page
// answers no other Host.
func TestFleetServeConsole(t *testing.T) {
	blk := newOperatorBlock(t, testblock.TwoEuroDefinition, 7, block.Seed{2, 9})
	var out syncbuf.Buffer
	cf := &consoleFlags{addr: "127.0.0.1:0"}
	cf.sf.manifests, cf.sf.definitions = []string{blk.Manifest}, []string{blk.DefFile}
	data, creds, natsURL := startFleetWith(t, [][]string{{"R1", "5"}}, blk.Service(t), cf, &out)
	blk.PublishStatus(t, data, natsURL, 5, "7:0-7")
	m := regexp.MustCompile(`console on (http://[0-9.:]+) \(login token in (.+)\)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no console line in %q", out.String())
	}
	if m[2] != filepath.Join(data, console.TokenFile) {
		t.Errorf("token file %s", m[2])
	}
	token, err := console.ReadToken(m[2])
	if err != nil {
		t.Fatal(err)
	}
	var loser, genuine codes.TicketID
	for pack := range 8 {
		for pos := 1; pos <= 8; pos++ {
			id := codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}
			if lot := blk.Prize(id); lot == 0 && loser.Block == 0 {
				loser = id
			} else if lot > 0 && genuine.Block == 0 {
				genuine = id
			}
		}
	}
	j, c := fleetTerminal(t, data, natsURL, creds, "R1")
	bg := context.Background()
	if _, err := c.Claim(bg, blk.Code(genuine), blk.Prize(genuine)); err != nil {
		t.Fatalf("genuine claim: %v", err)
	}
	if _, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: genuine, Game: int(genuine.Position), Amount: blk.Prize(genuine), Code: blk.Code(genuine)}); err != nil {
		t.Fatal(err)
	}
	forged, err := j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: loser, Game: int(loser.Position), Amount: 15000, Code: blk.Code(loser)})
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	if r, err := cl.PostForm(m[1]+"/login", url.Values{"token": {token}}); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("login: %v %v", err, r)
	}
	// The records reach the console by its feed: wait for the forged one's event.
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", m[1]+"/events", nil)
	ev, err := (&http.Client{Jar: jar}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Body.Close()
	sc := bufio.NewScanner(ev.Body)
	sc.Scan() // ": live": subscribed
	if err := c.Sync(bg); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`"terminal":"R1","seq":%d,`, forged.Seq)
	for !strings.Contains(sc.Text(), want) {
		if !sc.Scan() {
			t.Fatalf("no event of %s: %v", forged.ID(), sc.Err())
		}
	}
	r, err := cl.Get(m[1] + "/settle")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	body := string(b)
	if !strings.Contains(body, `id="flagged-count">1<`) || !strings.Contains(body, forged.ID()) || !strings.Contains(body, settle.ReasonLoserPaid) {
		t.Errorf("settlement page: %s", body)
	}
	if strings.Contains(body, blk.Code(loser).String()) || strings.Contains(body, token) {
		t.Error("a code or the token on the page")
	}
	req, _ = http.NewRequest("GET", m[1]+"/settle", nil)
	req.Host = "fleet.evil.example"
	if r, err := cl.Do(req); err != nil || r.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("wrong Host: %v %v", err, r)
	}
	if st, _ := os.Stat(m[2]); st.Mode().Perm() != 0o600 {
		t.Errorf("token mode %v", st.Mode().Perm())
	}
}

// TestFleetConsoleCommand: posctl fleet console beside a running fleet serves the same
// console from the operator's connection: it prints its address, a login with the token
// of DIR/console.token opens the terminals page with the registered terminal, and the
// command ends cleanly when its context does.
func TestFleetConsoleCommand(t *testing.T) {
	blk := newOperatorBlock(t, testblock.TwoEuroDefinition, 7, block.Seed{2, 9})
	data, _, natsURL := startFleet(t, [][]string{{"R1", "5"}}, blk.Service(t))
	resetFlags(root)
	pr, pw := io.Pipe()
	root.SetArgs([]string{"fleet", "console", "--data", data, "--url", natsURL, "--console", "127.0.0.1:0"})
	root.SetOut(pw)
	ctx, cancel := context.WithCancel(context.Background())
	// cobra gives a command its parent's context only while it has none, and a command
	// keeps the one an earlier Execute in this process gave it: without this, cancelling
	// ctx would not reach the command and it would never end (the package's run hung).
	if sub, _, err := root.Find([]string{"fleet", "console"}); err == nil {
		sub.SetContext(ctx)
	}
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx); pw.Close() }()
	// ExecuteContext leaves ctx on root and on the command it ran: the next tests' commands
	// must not inherit it cancelled.
	defer func() {
		root.SetOut(nil)
		root.SetArgs(nil)
		root.SetContext(context.Background())
		if sub, _, err := root.Find([]string{"fleet", "console"}); err == nil {
			sub.SetContext(nil) // nil: the next Execute gives it root's
		}
	}()
	sc := bufio.NewScanner(pr)
	var addr string
	for addr == "" && sc.Scan() {
		if m := regexp.MustCompile(`^console on (http://[0-9.:]+) `).FindStringSubmatch(sc.Text()); m != nil {
			addr = m[1]
		}
	}
	go io.Copy(io.Discard, pr)
	if addr == "" {
		cancel()
		t.Fatalf("no console line: %v", <-done)
	}
	token, err := console.ReadToken(filepath.Join(data, console.TokenFile))
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	if r, err := cl.PostForm(addr+"/login", url.Values{"token": {token}}); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("login: %v %v", err, r)
	}
	r, err := cl.Get(addr + "/terminals")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if !strings.Contains(string(b), `href="/terminals/R1"`) {
		t.Errorf("terminals page: %s", b)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("fleet console: %v", err)
	}
}
