package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// makeJournal writes a small journal (a sale, two payouts, a refusal) and returns its dir.
func makeJournal(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: "T7"})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var s [codes.SecretSize]byte
	for _, e := range []journal.Entry{
		{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 42, Pack: 7}, Amount: 2000, Receipts: []string{"V1"}},
		{Kind: journal.KindPayout, Ticket: codes.TicketID{Block: 42, Pack: 7, Position: 3}, Game: 3, Amount: 3000,
			Code: codes.ValidationCodeOf(codes.TicketID{Block: 42, Pack: 7, Position: 3}, s), Receipts: []string{"RTAMPERME"}},
		{Kind: journal.KindRefused, Ticket: codes.TicketID{Block: 42, Pack: 7, Position: 4}, Reason: "forged"},
		{Kind: journal.KindPayout, Ticket: codes.TicketID{Block: 42, Pack: 8, Position: 1}, Game: 1, Amount: 150,
			Code: codes.ValidationCodeOf(codes.TicketID{Block: 42, Pack: 8, Position: 1}, s)},
	} {
		if _, err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func dbSum(t *testing.T, dir string) [32]byte {
	b, err := os.ReadFile(filepath.Join(dir, journal.DBFile))
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestJournalCommands(t *testing.T) {
	dir := makeJournal(t)
	before := dbSum(t, dir)

	// Without a key kept apart, the signatures prove nothing: not "ok", exit 2.
	out, err := run(t, "journal", "verify", dir)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || strings.Contains(out, "ok") || !strings.Contains(out, "NOT VOUCHED: terminal T7, 4 records, 2 payouts, 1 sales") ||
		!strings.Contains(err.Error(), "which is not a trusted key") {
		t.Fatalf("verify without --pub: %v\n%s", err, out)
	}
	pub := filepath.Join(t.TempDir(), "T7.pub") // the operator's copy of the terminal's key
	if b, err := os.ReadFile(filepath.Join(dir, journal.DevicePubFile)); err != nil || os.WriteFile(pub, b, 0o644) != nil {
		t.Fatal(err)
	}
	out, err = run(t, "journal", "verify", dir, "--pub", pub)
	if err != nil || !strings.Contains(out, "ok: terminal T7, 4 records, 2 payouts, 1 sales") || !strings.Contains(out, "4 records signed by device key") {
		t.Fatalf("verify --pub: %v\n%s", err, out)
	}

	out, err = run(t, "journal", "export", dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.Contains(lines[2], ";payout;0042/0000007/3;3;30,00;RTAMPERME;") || !strings.Contains(lines[4], ";1,50;") {
		t.Fatalf("csv:\n%s", out)
	}
	out, err = run(t, "journal", "export", dir, "--format", "jsonl", "--since", "2000-01-01")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Kind        string `json:"kind"`
		AmountCents int64  `json:"amount_cents"`
	}
	jl := strings.Split(strings.TrimSpace(out), "\n")
	if len(jl) != 4 || json.Unmarshal([]byte(jl[1]), &rec) != nil || rec.Kind != "payout" || rec.AmountCents != 3000 {
		t.Fatalf("jsonl:\n%s", out)
	}
	if out, _ := run(t, "journal", "export", dir, "--since", "2999-01-01"); strings.Count(out, "\n") != 1 {
		t.Fatalf("--since in the future: %q", out)
	}
	if _, err := run(t, "journal", "export", dir, "--format", "xml"); err == nil {
		t.Fatal("--format xml accepted")
	}

	out, err = run(t, "journal", "show", dir, "--ticket", "42/7/3")
	if err != nil || !strings.Contains(out, "paid: yes, record T7/2") || strings.Contains(out, "RTAMPERME") == false {
		t.Fatalf("show --ticket: %v\n%s", err, out)
	}
	out, err = run(t, "journal", "show", dir, "--ticket", "42/7/4")
	if err != nil || !strings.Contains(out, "paid: no") || !strings.Contains(out, "refused") {
		t.Fatalf("show refused ticket: %v\n%s", err, out)
	}
	out, err = run(t, "journal", "show", dir, "--ticket", "42/7")
	if err != nil || !strings.Contains(out, "sold: yes, record T7/1") {
		t.Fatalf("show pack: %v\n%s", err, out)
	}
	out, err = run(t, "journal", "show", dir, "--last", "2")
	if err != nil || strings.Count(out, "T7/") != 2 || !strings.Contains(out, "T7/4") || strings.Contains(out, "T7/2 ") {
		t.Fatalf("show --last 2: %v\n%s", err, out)
	}
	if strings.Contains(out, codes.ValidationCodeOf(codes.TicketID{Block: 42, Pack: 8, Position: 1}, [codes.SecretSize]byte{}).String()) {
		t.Fatal("show prints a validation code")
	}
	if dbSum(t, dir) != before {
		t.Fatal("a journal command changed the journal")
	}

	// A damaged record: verify exits 1 naming it. (bbolt copies pages on write: the
	// record's bytes are in the live page and in free ones; damage them all.)
	b, _ := os.ReadFile(filepath.Join(dir, journal.DBFile))
	if !bytes.Contains(b, []byte("RTAMPERME")) {
		t.Fatal("record bytes not found")
	}
	b = bytes.ReplaceAll(b, []byte("RTAMPERME"), []byte("RTAMQERME"))
	os.WriteFile(filepath.Join(dir, journal.DBFile), b, 0o600)
	out, err = run(t, "journal", "verify", dir)
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "record T7/2 changed or damaged") {
		t.Fatalf("verify of a damaged journal: %v\n%s", err, out)
	}
}

// TestJournalDataFolder: verify, show and export find the journal under a board's data
// folder (DATA/journal) and the emulator's (DATA/terminal/journal); a folder holding none
// says so and where it looked, not "device public key … open DIR/device.pub".
func TestJournalDataFolder(t *testing.T) {
	src := makeJournal(t)
	for _, sub := range []string{"journal", filepath.Join("terminal", "journal")} {
		data := t.TempDir()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(data, sub)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(filepath.Join(data, sub), os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		out, err := run(t, "journal", "verify", data, "--pub", filepath.Join(src, journal.DevicePubFile))
		if err != nil || !strings.Contains(out, "ok: terminal T7, 4 records") {
			t.Errorf("verify %s: %v\n%s", sub, err, out)
		}
		for _, cmd := range []string{"show", "export"} {
			if out, err := run(t, "journal", cmd, data); err != nil || !strings.Contains(out, "T7") {
				t.Errorf("%s %s: %v\n%s", cmd, sub, err, out)
			}
		}
	}
	empty := t.TempDir()
	for _, cmd := range []string{"verify", "show", "export"} {
		_, err := run(t, "journal", cmd, empty)
		if !errors.Is(err, errNoJournal) || strings.Contains(err.Error(), "device public key") ||
			!strings.Contains(err.Error(), filepath.Join(empty, "terminal", "journal", journal.DBFile)) {
			t.Errorf("%s on a folder without a journal: %v", cmd, err)
		}
	}
}
