package fleet_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
)

// natsServerCommand is a nats-server process with args, run through wrap (a command and
// its arguments, such as nice, or none): this test binary run as the module's nats-server
// (natsServerEnv, TestMain), so no second build of it is needed.
func natsServerCommand(t *testing.T, wrap []string, args ...string) *exec.Cmd {
	t.Helper()
	if testing.Short() {
		t.Skip("runs nats-server processes")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatalf("the test binary: %v", err)
	}
	argv := append(append(wrap[:len(wrap):len(wrap)], self), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), natsServerEnv+"=1")
	return cmd
}

// clusterCerts writes dir/ca.pem and, for each node, node-N.pem and node-N-key.pem
// (127.0.0.1, server and client use: routes verify each other).
func clusterCerts(t *testing.T, dir string, n int) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fleet cluster test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(2 * time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	write := func(name string, typ string, der []byte, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("ca.pem", "CERTIFICATE", caDER, 0o644)
	for i := 1; i <= n; i++ {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(int64(i + 1)), Subject: pkix.Name{CommonName: fmt.Sprintf("fleet-%d", i)},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(2 * time.Hour),
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
			KeyUsage: x509.KeyUsageDigitalSignature}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, _ := x509.MarshalECPrivateKey(key)
		write(fmt.Sprintf("node-%d.pem", i), "CERTIFICATE", der, 0o644)
		write(fmt.Sprintf("node-%d-key.pem", i), "EC PRIVATE KEY", kder, 0o600)
	}
	return filepath.Join(dir, "ca.pem")
}

// freeBase finds base ports for n nodes' client, route and monitoring ports (each base
// + 0..n-1 free now).
func freeBase(t *testing.T, n int) (client, cluster, http int) {
	t.Helper()
	for range 50 {
		base := 20000 + mrand.IntN(30000)
		ok := true
		var ls []net.Listener
		for _, off := range []int{0, 100, 200} {
			for i := range n {
				l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", base+off+i))
				if err != nil {
					ok = false
					break
				}
				ls = append(ls, l)
			}
		}
		for _, l := range ls {
			l.Close()
		}
		if ok {
			return base, base + 100, base + 200
		}
	}
	t.Fatal("no free ports")
	return
}

// streamLeader asks each node's monitoring port which node leads stream (in the global
// account); "" when none answers.
func streamLeader(mon []string, stream string) string {
	var jsz struct {
		Accounts []struct {
			Streams []struct {
				Name    string `json:"name"`
				Cluster struct {
					Leader string `json:"leader"`
				} `json:"cluster"`
			} `json:"stream_detail"`
		} `json:"account_details"`
	}
	cl := http.Client{Timeout: 2 * time.Second}
	for _, m := range mon {
		resp, err := cl.Get(m + "/jsz?accounts=true&streams=true")
		if err != nil {
			continue
		}
		err = json.NewDecoder(resp.Body).Decode(&jsz)
		resp.Body.Close()
		if err != nil {
			continue
		}
		for _, a := range jsz.Accounts {
			for _, s := range a.Streams {
				if s.Name == stream && s.Cluster.Leader != "" {
					return s.Cluster.Leader
				}
			}
		}
	}
	return ""
}

// TestClusterConfigRealServers: the files cluster-config writes run three real
// nats-server processes (the module's server code: this test binary run as nats-server) with TLS on clients and routes, the
// registry's nkey users and a monitoring port; two claim services started at once set
// up the stores (3 replicas) and two terminals race on the same winners while the
// claims bucket's leader, found through the monitoring port, is killed (SIGKILL): every
// ticket paid once, every acknowledged claim kept.
func TestClusterConfigRealServers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nats-server processes")
	}
	if raceEnabled { // race-built servers: scripts/test.sh's full-size stage runs it without
		t.Skip("runs nats-server processes: left to the full-size stage, without -race")
	}
	const nodes = 3
	f := newRegistry(t, 2)
	if err := server.SaveRegistry(f.dir, f.reg); err != nil {
		t.Fatal(err)
	}
	cp, rp, hp := freeBase(t, nodes)
	tlsDir := filepath.Join(f.dir, "tls")
	f.ca = clusterCerts(t, tlsDir, nodes)
	cc := server.ClusterConfig{Nodes: nodes, ClientPort: cp, ClusterPort: rp, HTTPPort: hp, StoreDir: filepath.Join(f.dir, "store"), TLSDir: tlsDir}
	confs, err := cc.Write(f.reg, filepath.Join(f.dir, "conf"))
	if err != nil {
		t.Fatal(err)
	}
	urls, _ := cc.ClientURLs()
	mon, _ := cc.MonitorURLs()
	f.urls = strings.Split(urls, ",")
	procs := map[string]*exec.Cmd{}
	for i, conf := range confs {
		cmd := natsServerCommand(t, nil, "-c", conf)
		logf, _ := os.Create(filepath.Join(f.dir, fmt.Sprintf("node-%d.log", i+1)))
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[fmt.Sprintf("fleet-%d", i+1)] = cmd
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	}
	waitListening(t, mon, f.dir)
	f.block = fleettest.NewBlock(t, 7, 400, secretOf, tierOf)
	// Two services at once, each on its own node, against a cluster that has just started.
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	ups := make(chan error, 2)
	for i := range 2 {
		nc := f.operator(t, rotate(f.urls, i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			js, _ := jetstream.New(nc)
			sctx, scancel := context.WithTimeout(ctx, 90*time.Second)
			st, err := server.SetupStores(sctx, js, server.SetupOptions{Replicas: 3, Attempt: 3 * time.Second})
			scancel()
			if err != nil {
				ups <- err
				return
			}
			if i == 0 {
				f.stores = st
			}
			so := f.serviceOptions(t)
			ready := make(chan struct{})
			so.Ready = ready
			done := make(chan error, 1)
			go func() { done <- server.NewService(nc, st, so).Run(ctx) }()
			select {
			case <-ready:
				ups <- nil
			case err := <-done:
				ups <- err
			}
			<-done
		}()
	}
	for range 2 {
		if err := <-ups; err != nil {
			t.Fatalf("service did not come up: %v", err)
		}
	}
	f.op = f.operator(t, f.urls)
	for _, r := range f.retailers() {
		f.publishStatus(t, f.block.Status(t, r, 1, f.block.Delivered()))
	}
	terms := make([]*terminal, 2)
	for i := range terms {
		id := fmt.Sprintf("T%03d", i)
		terms[i] = f.terminal(t, id, joinURLs(rotate(f.urls, i)), func(o *fleet.Options) { o.CA = f.ca })
	}
	for _, tm := range terms {
		waitOnline(t, tm.c)
	}
	killed := ""
	kill := func() {
		leader := streamLeader(mon, "KV_"+fleet.ClaimsBucket)
		if p := procs[leader]; p != nil {
			p.Process.Kill()
			killed = leader
		}
	}
	const tickets = 150
	start := time.Now()
	out := runRace(t, f, terms, tickets, 2, kill)
	t.Logf("%d claims in %v through a leader kill (%q)", tickets*2, time.Since(start), killed)
	if killed == "" {
		t.Fatal("the claims bucket's leader was not found through the monitoring ports")
	}
	checkRace(t, f, terms, out, tickets, 2)
}

// waitListening waits until every node's monitoring port answers (the process started).
func waitListening(t *testing.T, mon []string, dir string) {
	t.Helper()
	cl := http.Client{Timeout: time.Second}
	for _, m := range mon {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			resp, err := cl.Get(m + "/varz")
			if err == nil {
				resp.Body.Close()
				break
			}
			if time.Now().After(deadline) {
				logs, _ := filepath.Glob(filepath.Join(dir, "node-*.log"))
				for _, l := range logs {
					b, _ := os.ReadFile(l)
					t.Logf("%s:\n%s", l, b)
				}
				t.Fatalf("%s never answered: %v", m, err)
			}
		}
	}
}
