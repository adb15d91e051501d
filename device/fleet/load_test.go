package fleet_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// lightTerminal is a simulated terminal: its own nkey and connection, speaking the
// fleet's protocol (claims on fleet.claim.<id>, journal records on journal.<id>.<kind>
// acknowledged by the stream), without a journal file.
type lightTerminal struct {
	id  string
	nc  *nats.Conn
	seq atomic.Uint64
}

// claim asks for ticket id once; the reply's result ("" on a timeout or a lost
// connection: undecided).
func (l *lightTerminal) claim(id codes.TicketID, timeout time.Duration) (string, error) {
	body, _ := json.Marshal(fleet.ClaimRequest{Ticket: id, Code: codeOf(id).String(), Amount: lotOf(id), At: time.Now()})
	m, err := l.nc.Request(fleet.ClaimPrefix+l.id, body, timeout)
	if err != nil {
		return "", err
	}
	rep, err := fleet.DecodeClaimReply(m.Data)
	if err != nil {
		return "", err
	}
	return rep.Result, nil
}

// publish sends the payout record of id (canonical encoding, message id as the client
// sets it) and waits for the stream's acknowledgement.
func (l *lightTerminal) publish(id codes.TicketID, timeout time.Duration) error {
	r := journal.Record{Entry: payout(id, lotOf(id), false), Terminal: l.id, Seq: l.seq.Add(1), Boot: 1}
	r.Hash = sha256.Sum256([]byte(fmt.Sprint(l.id, r.Seq, id)))
	m := &nats.Msg{Subject: fleet.JournalSubject(&r), Data: journal.AppendRecord(nil, &r), Header: nats.Header{}}
	m.Header.Set(jetstream.MsgIDHeader, fleet.MsgID(&r))
	rep, err := l.nc.RequestMsg(m, timeout)
	if err != nil {
		return err
	}
	if len(rep.Data) == 0 || strings.Contains(string(rep.Data), `"error"`) {
		return fmt.Errorf("publish: %s", rep.Data)
	}
	return nil
}

// loadCluster is three nats-server processes from cluster-config's files.
type loadCluster struct {
	urls    []string
	mon     []string
	procs   map[string]*exec.Cmd
	prof    map[string]string        // node: its pprof CPU profile URL (FLEETLOAD_PROFILE)
	cpuSeen map[string]time.Duration // node: CPU time it was last seen using
}

func (c *loadCluster) rss() string {
	var out []string
	for _, name := range []string{"fleet-1", "fleet-2", "fleet-3"} {
		p := c.procs[name]
		if p == nil || p.ProcessState != nil {
			out = append(out, name+" down")
			continue
		}
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Process.Pid))
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				out = append(out, name+" "+strings.TrimSpace(v))
			}
		}
	}
	return strings.Join(out, ", ")
}

// stageResult is one rate's outcome.
type stageResult struct {
	rate, sent, dropped, won, undecided int
	decided                             int // claims answered (won, yours or refused), in the stage or after
	decidedPerSec                       float64
	p50, p99, pubP50, pubP99            time.Duration
	failover                            time.Duration
	errs                                map[string]int // undecided claims' last errors
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// TestFleetLoad (FLEETLOAD=1; not in CI): FLEETLOAD_TERMINALS (default 10,000) light
// terminals, each with its own nkey and connection, on a 3-node cluster of real
// nats-server processes written by cluster-config, FLEETLOAD_SERVICES claim services
// (default 2, one per node from the first); claims at each rate of FLEETLOAD_RATES
// (claims/s, open loop, default 250,500,1000) for FLEETLOAD_STAGE seconds (default 20),
// each winning claim followed by its payout record published and acknowledged; the
// claims bucket's leader killed (SIGKILL) half way through stage FLEETLOAD_KILL (1-based;
// default the last; 0: none). Every claim answered "won" must be in the bucket. Each
// stage logs the CPU time (user+system) the nodes and this process (services and
// terminals) used per claim decided; FLEETLOAD_PROFILE=DIR writes each stage's CPU
// profiles of this process and of every node there.
func TestFleetLoad(t *testing.T) {
	if os.Getenv("FLEETLOAD") != "1" {
		t.Skip("FLEETLOAD=1 runs the load test")
	}
	nTerm := envInt("FLEETLOAD_TERMINALS", 10000)
	stage := time.Duration(envInt("FLEETLOAD_STAGE", 20)) * time.Second
	var rates []int
	for _, s := range strings.Split(cmpOr(os.Getenv("FLEETLOAD_RATES"), "250,500,1000"), ",") {
		n, _ := strconv.Atoi(s)
		rates = append(rates, n)
	}
	dir := t.TempDir()
	reg, err := server.InitData(dir)
	if err != nil {
		t.Fatal(err)
	}
	kps := make([]nkeys.KeyPair, nTerm)
	for i := range kps {
		kps[i], _ = nkeys.CreateUser()
		pub, _ := kps[i].PublicKey()
		reg.Terminals = append(reg.Terminals, server.Terminal{ID: fmt.Sprintf("L%05d", i), Retailer: uint32(100 + i%10), NKey: pub})
	}
	if err := server.SaveRegistry(dir, reg); err != nil {
		t.Fatal(err)
	}
	profDir := os.Getenv("FLEETLOAD_PROFILE")
	cl := startLoadCluster(t, dir, reg, profDir != "")
	total := 0
	for _, r := range rates {
		total += r * int(stage/time.Second)
	}
	f := &testFleet{dir: dir, reg: reg, seeds: map[string]string{"": filepath.Join(dir, server.OperatorSeedFile)}, urls: cl.urls}
	f.block = fleettest.NewBlock(t, 7, uint32(total/7+100), secretOf, tierOf)
	startLoadServices(t, f, envInt("FLEETLOAD_SERVICES", 2))
	terms := connectLight(t, f, kps, cl.urls)
	t.Logf("load: %d terminals connected; memory %s; load average %s", len(terms), cl.rss(), loadAvg())
	stopProfile := profileStage(t, profDir, "idle", cl, 5*time.Second)
	idle := cl.cpu()
	time.Sleep(5 * time.Second) // the cost of 10,000 idle connections
	idle = cl.cpu().sub(idle)
	stopProfile()
	t.Logf("load: idle, CPU per second: servers %v, test process %v", idle.nodes/5, idle.self/5)
	killStage := envInt("FLEETLOAD_KILL", len(rates)) // 1-based; "0": no kill
	if os.Getenv("FLEETLOAD_KILL") == "0" {
		killStage = 0
	}
	var next atomic.Int64
	won := map[codes.TicketID]string{}
	var wonMu sync.Mutex
	for si, rate := range rates {
		var kill func() time.Time
		if si == killStage-1 {
			kill = func() time.Time {
				leader := streamLeader(cl.mon, "KV_"+fleet.ClaimsBucket)
				if p := cl.procs[leader]; p != nil {
					p.Process.Kill()
					t.Logf("load: killed %s (claims leader)", leader)
				}
				return time.Now()
			}
		}
		stopProfile := profileStage(t, profDir, strconv.Itoa(rate), cl, stage)
		before, began := cl.cpu(), time.Now()
		res := runStage(terms, rate, stage, &next, kill, func(id codes.TicketID, term string) {
			wonMu.Lock()
			won[id] = term
			wonMu.Unlock()
		})
		used, wall := cl.cpu().sub(before), time.Since(began)
		stopProfile()
		t.Logf("load: %d claims/s asked: %d sent (%d not sent: 4,000 in flight), %d won, %d undecided after retries; %.0f decided/s; claim p50 %v p99 %v; journal publish p50 %v p99 %v; failover %v; undecided by error %v; CPU per decided claim: %s; memory %s; load average %s",
			res.rate, res.sent, res.dropped, res.won, res.undecided, res.decidedPerSec, res.p50, res.p99, res.pubP50, res.pubP99, res.failover, res.errs, used.perClaim(res.decided, wall), cl.rss(), loadAvg())
	}
	checkBucket(t, f, won)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	fs := strings.Fields(string(b))
	if len(fs) < 3 {
		return "?"
	}
	return strings.Join(fs[:3], " ")
}
