package main

import (
	"bufio"
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// buildPosd builds the daemon once for the test.
func buildPosd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "posd")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// crashBlock generates the crash test's block: 40 packs, one 5 € winner each.
func crashBlock(t *testing.T, dir string) (winners map[string]codes.TicketID, ledgerPath, pub string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "crash-definition.json"))
	if err != nil {
		t.Fatal(err)
	}
	def, err := game.ParseSource(src)
	if err != nil {
		t.Fatal(err)
	}
	winners = map[string]codes.TicketID{}
	var mu sync.Mutex
	err = emulated.GenerateBlock(context.Background(), dir, def, 3, block.Seed{3}, func(tk *block.Ticket) {
		if tk.Tier > 0 {
			mu.Lock()
			winners[codes.ValidationCodeOf(tk.ID, tk.Secret).String()] = tk.ID
			mu.Unlock()
		}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return winners, filepath.Join(dir, ledger.FileName(3)), filepath.Join(dir, "keys", ledger.OperatorPublicFile)
}

// acknowledged reads posd's output: the codes whose payout the screen confirmed ("PAYÉ").
func acknowledged(out []byte) []string {
	var acked []string
	code := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "> !"):
		case strings.HasPrefix(l, "> "):
			code = strings.TrimPrefix(l, "> ")
		case strings.HasPrefix(l, "|PAY") && strings.Contains(l, ",00") && code != "":
			acked = append(acked, code)
			code = ""
		}
	}
	return acked
}

// TestCrashDuringPayouts kills posd --emulate (kill -9) at random moments of a stream of
// payouts, at least 50 times, restarting it on the same data each time; then the journal
// verifies, every payout the screen acknowledged is in it, and no ticket is paid twice.
func TestCrashDuringPayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: -short")
	}
	bin := buildPosd(t)
	dir := t.TempDir()
	winners, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	// Each code twice: once paid, once refused (DÉJÀ PAYÉ), so that a run lasts long enough
	// to be killed even once everything is paid.
	var script strings.Builder
	for range 2 {
		for code := range winners {
			script.WriteString(code + "\n!ok\n")
		}
	}
	scriptPath := filepath.Join(dir, "payouts.txt")
	if err := os.WriteFile(scriptPath, []byte(script.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	args := []string{"--emulate", "--data", data, "--ledger", ledgerPath, "--pub", pub, "--script", scriptPath}
	r := rand.New(rand.NewPCG(1, 2))
	acked := map[string]bool{}
	kills := 0
	deadline := time.Now().Add(45 * time.Second)
	for kills < 50 && time.Now().Before(deadline) {
		cmd := exec.Command(bin, args...)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-time.After(time.Duration(50+r.IntN(400)) * time.Millisecond):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			kills++
		case err := <-done:
			if err != nil {
				t.Fatalf("posd ended: %v\n%s", err, out.String())
			}
		}
		for _, c := range acknowledged(out.Bytes()) {
			acked[c] = true
		}
	}
	if kills < 50 {
		t.Fatalf("only %d kills in the time allowed", kills)
	}
	// A last run to the end of the script: it exits 0, idle.
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	for _, c := range acknowledged(out) {
		acked[c] = true
	}
	j, err := journal.Open(filepath.Join(data, "terminal", "journal"), journal.Options{Terminal: "EMU-0001", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Health(); err != nil {
		t.Fatalf("journal unhealthy: %v", err)
	}
	rep, err := j.Verify()
	if err != nil {
		t.Fatalf("journal does not verify: %v", err)
	}
	if rep.Payouts != len(winners) {
		t.Errorf("verified journal holds %d payouts, want %d", rep.Payouts, len(winners))
	}
	paid := map[codes.TicketID]int{}
	if err := j.Each(time.Time{}, func(rec journal.Record) error {
		if rec.Kind == journal.KindPayout {
			paid[rec.Ticket]++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for id, n := range paid {
		if n > 1 {
			t.Errorf("ticket %v paid %d times", id, n)
		}
	}
	for c := range acked {
		if paid[winners[c]] != 1 {
			t.Errorf("acknowledged payout of %v not in the journal", winners[c])
		}
	}
	if len(paid) != len(winners) {
		t.Errorf("%d of %d winners paid after the final run", len(paid), len(winners))
	}
	t.Logf("%d kills, %d payouts acknowledged before a kill or at the end, %d paid", kills, len(acked), len(paid))
}
