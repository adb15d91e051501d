package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lineWriter hands the lines written to it to a channel (dropping them when it is full).
type lineWriter struct{ lines chan string }

func (w *lineWriter) Write(p []byte) (int, error) {
	sc := bufio.NewScanner(bytes.NewReader(p))
	for sc.Scan() {
		select {
		case w.lines <- sc.Text():
		default:
		}
	}
	return len(p), nil
}

// TestEmulateWeb runs posd --emulate --http in-process: the page answers on the address it
// prints, a scan through it reaches the terminal, and SIGINT stops it all.
func TestEmulateWeb(t *testing.T) {
	dir := t.TempDir()
	winners, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	var code string
	for c := range winners {
		code = c
		break
	}
	stdin, stdinW := io.Pipe()
	defer stdinW.Close()
	errw := &lineWriter{lines: make(chan string, 100)}
	var out bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"--emulate", "--data", filepath.Join(dir, "data"), "--ledger", ledgerPath, "--pub", pub,
			"--http", "127.0.0.1:0"}, stdin, &out, errw)
	}()
	var base string
	deadline := time.After(20 * time.Second)
	for base == "" {
		select {
		case l := <-errw.lines:
			if a, ok := strings.CutPrefix(l, "posd: web page on "); ok {
				base = strings.TrimSuffix(a, "/")
			}
		case rc := <-done:
			t.Fatalf("posd ended with %d", rc)
		case <-deadline:
			t.Fatal("no web page address printed")
		}
	}
	// A rebound name (DNS rebinding) is refused, on loopback too; the page's own address is served.
	req, _ := http.NewRequest(http.MethodPost, base+"/emu/input", strings.NewReader(`{"action":"scan","code":"`+code+`"}`))
	req.Header.Set("X-Posd", "1")
	req.Host = "evil.example:" + base[strings.LastIndexByte(base, ':')+1:]
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("scan through a rebound name: %d", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, base+"/emu/input", strings.NewReader(`{"action":"scan","code":"`+code+`"}`))
	req.Header.Set("X-Posd", "1")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("scan through the page: %d", resp.StatusCode)
	}
	resp, err = http.Get(base + "/status.json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		State   string                `json:"state"`
		Ledgers []struct{ Block int } `json:"ledgers"`
	}
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || len(st.Ledgers) != 1 || st.Ledgers[0].Block != 3 || st.State != "pay-offer" {
		t.Errorf("status %+v %v", st, err)
	}
	// A line typed on stdin shows on the page as the last input, as the page's own do.
	if _, err := io.WriteString(stdinW, "!cancel\n"); err != nil {
		t.Fatal(err)
	}
	var live struct {
		State string `json:"state"`
		Last  struct {
			N     int    `json:"n"`
			Input string `json:"input"`
			From  string `json:"from"`
		} `json:"last"`
	}
	for end := time.Now().Add(10 * time.Second); live.Last.From != "stdin" && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		resp, err := http.Get(base + "/emu/live.json")
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&live)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if live.Last.From != "stdin" || live.Last.Input != "cancel" || live.Last.N != 2 {
		t.Errorf("last input after a stdin line: %+v", live.Last)
	}
	stdinW.Close() // the input ends: the page goes on until a signal
	select {
	case rc := <-done:
		t.Fatalf("posd ended with %d when its input ended", rc)
	case <-time.After(200 * time.Millisecond):
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case rc := <-done:
		if rc != 0 {
			t.Errorf("exit %d after SIGINT", rc)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("posd did not stop on SIGINT")
	}
}

func TestEmulateWebFailsClosed(t *testing.T) {
	dir := t.TempDir()
	_, ledgerPath, pub := crashBlock(t, filepath.Join(dir, "block"))
	var out, errb bytes.Buffer
	rc := run([]string{"--emulate", "--data", filepath.Join(dir, "data"), "--ledger", ledgerPath, "--pub", pub,
		"--http", "0.0.0.0:0"}, strings.NewReader(""), &out, &errb)
	if rc == 0 || !strings.Contains(errb.String(), "token_sha256") {
		t.Errorf("exit %d: %s", rc, errb.String())
	}
}

func TestBoardWebFailsClosed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "posd.toml")
	conf := "[terminal]\nid = \"T1\"\nretailer = \"1\"\n[keys]\noperator = [\"/nonexistent/operator.pub\"]\n[http]\nlisten = \"0.0.0.0:8080\"\n"
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"--config", path}, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "token_sha256") {
		t.Errorf("exit %d: %s", rc, errb.String())
	}
	// --http overrides the file's address (a file listening on loopback, which needs no token).
	conf = strings.Replace(conf, "0.0.0.0:8080", "127.0.0.1:8080", 1)
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if rc := run([]string{"--config", path, "--http", "192.168.0.10:80"}, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "192.168.0.10:80") {
		t.Errorf("exit %d: %s", rc, errb.String())
	}
}
