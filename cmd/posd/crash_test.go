package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
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

// TestCrashDuringFirstStart kills posd --emulate (kill -9) during its very first start,
// each time in a new data directory: as soon as the journal's directory gets its first
// file, then 0–5 ms later. The next start on that data must be a first start again and
// pay (it once said JOURNAL EFFACÉ for good: the device key was written before the
// journal, and a kill between them left the key as evidence of a journal).
func TestCrashDuringFirstStart(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: -short")
	}
	bin := buildPosd(t)
	dir := t.TempDir()
	winners, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	var code string
	for c := range winners {
		code = c
		break
	}
	scriptPath := filepath.Join(dir, "one-payout.txt")
	if err := os.WriteFile(scriptPath, []byte(code+"\n!ok\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
	killed := 0
	for i := range 12 {
		data := filepath.Join(dir, fmt.Sprintf("data%d", i))
		args := []string{"--emulate", "--data", data, "--ledger", ledgerPath, "--pub", pub, "--script", scriptPath}
		cmd := exec.Command(bin, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		if waitFirstFile(filepath.Join(data, "terminal", "journal"), done) {
			time.Sleep(time.Duration(r.IntN(5000)) * time.Microsecond)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			if err := <-done; err != nil {
				killed++
			}
		}
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("run %d: restart after a kill during the first start: %v\n%s", i, err, out)
		}
		if acked := acknowledged(out); len(acked) != 1 || bytes.Contains(out, []byte("JOURNAL EFFAC")) {
			t.Fatalf("run %d: restart after a kill during the first start paid %d:\n%s", i, len(acked), out)
		}
	}
	t.Logf("%d of 12 first starts killed, each restarted as a first start and paid", killed)
}

// waitFirstFile waits until dir holds a file (true) or the process has ended (false).
func waitFirstFile(dir string, done chan error) bool {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
			return true
		}
		select {
		case err := <-done:
			done <- err
			return false
		case <-time.After(100 * time.Microsecond):
		}
	}
	return false
}
