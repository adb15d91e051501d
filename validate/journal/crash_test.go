package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// crashDirEnv, when set, makes TestCrashChild the crash test's child: it appends payouts
// to the journal in that directory until it is killed.
const crashDirEnv = "JOURNAL_CRASH_CHILD_DIR"

// TestCrashChild is the child of TestCrashKill (skipped otherwise). It appends payouts in
// a loop, the one of record s paying ticket s-1, and prints each sequence number once
// Append has returned; every seventh record it tries to pay the same ticket again, which
// must be refused.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("child of TestCrashKill")
	}
	fail := func(code int, format string, args ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
		os.Exit(code)
	}
	j, err := Open(dir, Options{Terminal: "T0042"})
	if err != nil {
		fail(2, "open: %v", err)
	}
	if err := j.Health(); err != nil {
		fail(2, "health: %v", err)
	}
	for {
		seq, _ := j.Head()
		e := payoutN(int(seq))
		r, err := j.Append(e)
		if err != nil {
			fail(3, "append %d: %v", seq+1, err)
		}
		os.Stdout.WriteString(strconv.FormatUint(r.Seq, 10) + "\n")
		if r.Seq%7 == 0 {
			if _, err := j.Append(e); !errors.Is(err, ErrDuplicatePayout) {
				fail(4, "second payout of record %d's ticket: %v", r.Seq, err)
			}
		}
	}
}

// TestCrashKill kills a child appending payouts with SIGKILL at random moments (during
// its open, between and inside appends), at least 200 times, and after each kill reopens
// the journal: it must verify whole, hold every acknowledged record (no gap: Verify), pay
// no ticket twice (Verify's index check) and go on from there.
func TestCrashKill(t *testing.T) {
	if os.Getenv(crashDirEnv) != "" {
		t.Skip("in the child")
	}
	kills := 200
	switch {
	case testing.Short():
		kills = 25
	case raceEnabled: // the full-count stage, without -race, kills 200 times
		kills = 50
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	var acked uint64 // highest acknowledged sequence number
	ackedTotal := 0
	start := time.Now()
	for i := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashDirEnv+"="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			if errors.Is(err, syscall.ENOEXEC) && i == 0 {
				// Under qemu-user without binfmt_misc the test binary cannot run itself.
				t.Skipf("cannot run the test binary as a child here: %v", err)
			}
			t.Fatal(err)
		}
		kill := func() { cmd.Process.Signal(syscall.SIGKILL) }
		after := rng.IntN(6) // acknowledgements to wait for, then a random delay
		delay := time.Duration(rng.IntN(4000)) * time.Microsecond
		if after == 0 {
			delay = time.Duration(rng.IntN(30)) * time.Millisecond // during start or first appends
			time.AfterFunc(delay, kill)
		}
		sc := bufio.NewScanner(out)
		n := 0
		for sc.Scan() {
			seq, err := strconv.ParseUint(sc.Text(), 10, 64)
			if err != nil || seq != acked+1 {
				kill()
				t.Fatalf("run %d: child acknowledged %q after %d", i, sc.Text(), acked)
			}
			acked = seq
			ackedTotal++
			if n++; n == after {
				time.AfterFunc(delay, kill)
			}
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() {
			t.Fatalf("run %d: child ended by itself (%v): %s", i, err, stderr.Bytes())
		}
		// A record can be durable and not acknowledged (killed between commit and print).
		acked = checkAfterCrash(t, dir, i, acked)
	}
	t.Logf("%d kills, %d acknowledged payouts, all present, chain verified after each restart (%v)", kills, ackedTotal, time.Since(start).Round(time.Millisecond))
}

// checkAfterCrash reopens and checks the journal after run; it returns the head.
func checkAfterCrash(t *testing.T, dir string, run int, acked uint64) uint64 {
	t.Helper()
	j, err := Open(dir, Options{Terminal: "T0042"})
	if err != nil {
		t.Fatalf("run %d: reopen: %v", run, err)
	}
	defer j.Close()
	if err := j.Health(); err != nil {
		t.Fatalf("run %d: after kill: %v", run, err)
	}
	rep, err := j.Verify()
	if err != nil {
		t.Fatalf("run %d: after kill: %v", run, err)
	}
	if rep.Records < acked {
		t.Fatalf("run %d: %d records, %d were acknowledged", run, rep.Records, acked)
	}
	if int(rep.Records) != rep.Payouts {
		t.Fatalf("run %d: %d records but %d payouts", run, rep.Records, rep.Payouts)
	}
	if acked > 0 {
		r, ok, err := j.Paid(ticketN(int(acked - 1)))
		if err != nil || !ok || r.Seq != acked {
			t.Fatalf("run %d: last acknowledged payout %d: %+v %v %v", run, acked, r, ok, err)
		}
	}
	return rep.Records
}
