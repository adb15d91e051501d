package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// TestEmulateScript runs posd --emulate in-process on a script: screens and receipts on
// stdout, receipts in --receipts, a pack status list from --packs, exit 0 at rest.
func TestEmulateScript(t *testing.T) {
	dir := t.TempDir()
	winners, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	var code string
	for c := range winners {
		code = c
		break
	}
	key, err := ledger.LoadPrivateKey(filepath.Join(dir, "block", "keys", ledger.OperatorPrivateFile))
	if err != nil {
		t.Fatal(err)
	}
	packs := filepath.Join(dir, "packs.list")
	if err := ledger.WriteStatus(packs, &ledger.StatusList{Retailer: 1, Version: 1, Ranges: []ledger.PackRange{
		{Block: 3, First: 0, Count: 2, State: ledger.PackDelivered}}}, key); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "script.txt")
	lines := []string{"# a sale, a payout, a pack not delivered here", codes.PackCode{Block: 3, Pack: 1}.String(), "!ok", code, "!ok",
		codes.PackCode{Block: 3, Pack: 9}.String(), "!ok"}
	if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	receipts := filepath.Join(dir, "receipts")
	var out, errb bytes.Buffer
	rc := run([]string{"--emulate", "--data", filepath.Join(dir, "data"), "--ledger", ledgerPath, "--pub", pub, "--packs", packs,
		"--script", script, "--receipts", receipts, "--display", "16x2"}, nil, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, errb.String(), out.String())
	}
	for _, want := range []string{"> !ok", "VENDU", "receipt 0001", "VENTE D'UN PAQUET", "COPIE JOUEUR", "NON LIVR"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, f := range []string{"0001.txt", "0001.png", "0002.txt", "0003.png"} {
		if _, err := os.Stat(filepath.Join(receipts, f)); err != nil {
			t.Error(err)
		}
	}
	// A script that leaves an offer open does not end at rest.
	if err := os.WriteFile(script, []byte(codes.PackCode{Block: 3, Pack: 0}.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if rc := run([]string{"--emulate", "--data", filepath.Join(dir, "data"), "--ledger", ledgerPath, "--pub", pub, "--packs", packs,
		"--script", script}, nil, &out, &errb); rc != 3 {
		t.Errorf("exit %d for a script ending on an open offer", rc)
	}
}

// TestEmulateWithConfig: --config gives the emulator its identity, limits and unlock token.
func TestEmulateWithConfig(t *testing.T) {
	dir := t.TempDir()
	winners, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	var code string
	for c := range winners {
		code = c
		break
	}
	conf := filepath.Join(dir, "posd.toml")
	// sha256("secret")
	toml := "[terminal]\nid = \"SHOP-7\"\nretailer = \"1\"\nretailer_name = \"Tabac test\"\n[limits]\npay_per_ticket = \"2,00\"\noffline_per_ticket = \"1,00\"\n" +
		"[technician]\ntoken_sha256 = \"2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b\"\n[keys]\noperator = [\"" + pub + "\"]\n" +
		"[http]\nlisten = \"\"\n" // honoured: no web page for this test
	if err := os.WriteFile(conf, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "script.txt")
	if err := os.WriteFile(script, []byte(code+"\n!tamper\n!unlock wrong\n!unlock secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	rc := run([]string{"--emulate", "--config", conf, "--data", filepath.Join(dir, "data"), "--ledger", ledgerPath, "--pub", pub, "--script", script}, nil, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, errb.String(), out.String())
	}
	o := out.String()
	if i, j := strings.Index(o, "> !unlock wrong"), strings.Index(o, "> !unlock secret"); i < 0 || j < i || strings.Contains(o[i:j], "TERMINAL D") {
		t.Errorf("a wrong token unlocked the terminal:\n%s", o)
	}
	for _, want := range []string{"SHOP-7", "Tabac test", "CENTRE", "TERMINAL BLOQU", "TERMINAL D"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestPayLimitFlag: --pay-limit 0, a negative one or one above the limit per day is a clear
// error (before, 0 and negative ones silently became 150 €), and so is --pay-limit beside
// --config (whose [limits] are the ones used).
func TestPayLimitFlag(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "posd.toml")
	if err := os.WriteFile(conf, []byte("[terminal]\nid = \"SHOP-7\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--pay-limit", "0"}, {"--pay-limit", "-5"}, {"--pay-limit", "5001"}, {"--pay-limit", "20", "--config", conf}} {
		var out, errb bytes.Buffer
		rc := run(append([]string{"--emulate", "--data", t.TempDir()}, args...), strings.NewReader(""), &out, &errb)
		if rc != 2 || !strings.Contains(errb.String(), "--pay-limit") {
			t.Errorf("%q: exit %d\n%s", args, rc, errb.String())
		}
		if strings.Contains(out.String(), "codes to try") {
			t.Errorf("%q: the demo block was opened before the flag was refused", args)
		}
	}
}

// TestEmulateStartFaultOnScreen: a data folder the terminal cannot open its journal in
// ends posd --emulate with the fault on its screen (DÉMARRAGE IMPOSSIBLE) as well as on
// stderr; before, it exited with no screen.
func TestEmulateStartFaultOnScreen(t *testing.T) {
	dir := t.TempDir()
	_, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(filepath.Join(data, "terminal"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "terminal", "journal"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	rc := run([]string{"--emulate", "--data", data, "--ledger", ledgerPath, "--pub", pub, "--display", "16x2"}, strings.NewReader(""), &out, &errb)
	if rc != 1 || !strings.Contains(out.String(), "ERREUR DÉMARRAGE") || !strings.Contains(errb.String(), "journal") {
		t.Errorf("exit %d\n%s\n%s", rc, out.String(), errb.String())
	}
}
