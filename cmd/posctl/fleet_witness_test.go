package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
	"github.com/packterm/pos/validate/settle"
)

// TestFleetWitnessInsider is issue 46's "the fleet is the witness" end to end, in the
// retailer's shoes: root on their terminal R1 (registered with its device key by
// add-terminal --device-pub), they hold its fleet credentials and its device key. R1
// claims four genuine winners and journals the first payout, signed. Then, with R1's own
// credentials, the retailer publishes on R1's journal subject the other three payouts as
// their own tool writes them: (a) R1/2 unsigned, (b) R1/3 signed with a key of their own,
// (c) R1/4 signed with the device key but with a forged Prev. Before, the fleet took
// them as they came: every payout was claimed and proven, settle and report exited 0.
// Now each is a finding of settle and report (exit 3) naming its record and reason, the
// payout on it is flagged (unsigned, bad-signature, rechained) and not proven, the claim
// service's witness records each in the refusals stream and refuses R1's claims
// (journal-unverified), while R2 of the same retailer is still paid.
func TestFleetWitnessInsider(t *testing.T) {
	blk := newOperatorBlock(t, tinyDefinition, 7, block.Seed{4, 6})
	dir, j := terminalJournal(t, "R1")
	data, creds, url := startFleet(t, [][]string{{"R1", "5", filepath.Join(dir, journal.DevicePubFile)}, {"R2", "5"}}, blk.Service(t))
	blk.PublishStatus(t, data, url, 5, "7:0-7")
	var w []codes.TicketID
	for pack := range 8 {
		for pos := 1; pos <= 8; pos++ {
			if id := (codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}); blk.Prize(id) > 0 {
				w = append(w, id)
			}
		}
	}
	c := connectTerminal(t, url, creds, dir, j)
	bg := context.Background()
	for _, id := range w[:4] {
		if _, err := c.Claim(bg, blk.Code(id), blk.Prize(id)); err != nil {
			t.Fatalf("claim %v: %v", id, err)
		}
	}
	payout := func(id codes.TicketID) journal.Entry {
		return journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: blk.Prize(id), Code: blk.Code(id)}
	}
	first, err := j.Append(payout(w[0]))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Sync(bg); err != nil {
		t.Fatal(err)
	}
	device, err := ledger.LoadPrivateKey(filepath.Join(dir, journal.DeviceKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	_, own, _ := ed25519.GenerateKey(nil)
	insider := insiderJetStream(t, url, filepath.Join(creds, "R1.nk"), "R1")
	forge := func(prev journal.Record, id codes.TicketID, prevHash *[32]byte, key ed25519.PrivateKey) journal.Record {
		r := journal.Record{Entry: payout(id), Terminal: "R1", Seq: prev.Seq + 1, Boot: prev.Boot, Prev: prev.Hash}
		r.Time = prev.Time.Add(time.Minute)
		if prevHash != nil {
			r.Prev = *prevHash
		}
		enc, out, err := testblock.ForgeRecord(r, key)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := insider.Publish(bg, fleet.JournalSubject(&out), enc, jetstream.WithMsgID(fleet.MsgID(&out))); err != nil {
			t.Fatalf("publish %s: %v", out.ID(), err)
		}
		return out
	}
	unsigned := forge(first, w[1], nil, nil)                   // (a) R1/2
	foreign := forge(unsigned, w[2], nil, own)                 // (b) R1/3
	rechained := forge(foreign, w[3], &[32]byte{0xbe}, device) // (c) R1/4
	want := map[string][]string{unsigned.ID(): {settle.ReasonUnsigned}, foreign.ID(): {settle.ReasonBadSignature},
		rechained.ID(): {settle.ReasonRechained}}

	out, err := runNet(t, "fleet", "settle", "--manifest", blk.Blocks, "--definition", blk.DefFile, "--data", data, "--url", url, "--json")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitFlagged {
		t.Fatalf("settle: %v\n%s", err, out)
	}
	var sj struct {
		Flagged    bool
		Settlement settle.Settlement
	}
	if err := json.Unmarshal([]byte(out), &sj); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkFlagged(t, "settle", sj.Flagged, &sj.Settlement, want)
	for _, p := range sj.Settlement.Flagged {
		if len(p.Flags) != 1 {
			t.Errorf("settle: %s flagged %+v, want only its witness reason", p.Record, p.Flags)
		}
	}
	if sj.Settlement.Totals.Proven != 1 || sj.Settlement.Witness == nil || len(sj.Settlement.Witness.Findings) != 3 {
		t.Errorf("settle: totals %+v, witness %+v", sj.Settlement.Totals, sj.Settlement.Witness)
	}
	out, err = runNet(t, "fleet", "report", "--manifest", blk.Manifest, "--definition", blk.DefFile, "--data", data, "--url", url)
	if !errors.As(err, &ee) || ee.code != exitFlagged {
		t.Fatalf("report: %v\n%s", err, out)
	}
	for _, line := range []string{"unsigned: record R1/2: unsigned record (format version 1)", "bad-signature: record R1/3: signed by key",
		"rechained: record R1/4: its prev is not the hash of record R1/3", "flagged payout R1/4  terminal R1"} {
		if !strings.Contains(out, line) {
			t.Errorf("report lacks %q:\n%s", line, out)
		}
	}

	// The witness refuses R1's claims from now on (it reads the stream as records arrive).
	var refused *fleet.RefusedError
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, err := c.Claim(bg, blk.Code(w[4]), blk.Prize(w[4]))
		if errors.As(err, &refused) && refused.Reason == fleet.RefusedJournalUnverified {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("R1's claim after its forged records: %v", err)
		}
	}
	_, c2 := fleetTerminal(t, data, url, creds, "R2")
	if cl, err := c2.Claim(bg, blk.Code(w[5]), blk.Prize(w[5])); err != nil || cl.Terminal != "R2" {
		t.Fatalf("R2's claim: %+v %v", cl, err)
	}
	out, err = runNet(t, "fleet", "refusals", "--data", data, "--url", url, "--terminal", "R1")
	for _, s := range []string{fleet.WitnessUnsigned, fleet.WitnessBadSignature, fleet.WitnessRechained, fleet.RefusedJournalUnverified,
		"record R1/2", "record R1/3", "record R1/4"} {
		if err != nil || !strings.Contains(out, s) {
			t.Errorf("refusals lack %s: %v\n%s", s, err, out)
		}
	}
}

// insiderJetStream is a JetStream client with terminal id's own credentials (seed), as
// the retailer root on it connects: only its own subjects and inbox.
func insiderJetStream(t *testing.T, url, seed, id string) jetstream.JetStream {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, opt, nats.CustomInboxPrefix(fleet.InboxPrefix+id))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestFleetSetDeviceKey: set-device-key registers a terminal's device.pub; the same key
// again changes nothing; another key is refused without --replace, and with it replaced
// loudly (both key ids), the old one kept retired (once, even when it comes back); an
// unknown terminal or a private key file is refused; add-terminal --device-pub registers
// it at once.
func TestFleetSetDeviceKey(t *testing.T) {
	data, creds := t.TempDir(), t.TempDir()
	if out, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T1", "--retailer", "5", "--out", filepath.Join(creds, "T1.nk")); err != nil {
		t.Fatalf("add-terminal: %v\n%s", err, out)
	}
	first, _ := terminalJournal(t, "T1")
	second, _ := terminalJournal(t, "T1")
	pubOf := func(dir string) string { return filepath.Join(dir, journal.DevicePubFile) }
	keyOf := func() string {
		reg, err := server.LoadRegistry(data)
		if err != nil {
			t.Fatal(err)
		}
		tm, _ := reg.Terminal("T1")
		return tm.DevicePub
	}
	keyID := func(dir string) string {
		k, err := ledger.LoadPublicKey(pubOf(dir))
		if err != nil {
			t.Fatal(err)
		}
		return ledger.IDOf(k).String()
	}
	if keyOf() != "" {
		t.Fatal("a device key before set-device-key")
	}
	set := func(dir string, extra ...string) (string, error) {
		return runNet(t, append([]string{"fleet", "set-device-key", "--data", data, "--id", "T1", "--pub", pubOf(dir)}, extra...)...)
	}
	if out, err := set(first); err != nil || !strings.Contains(out, "device key "+keyID(first)+" registered") {
		t.Fatalf("set: %v\n%s", err, out)
	}
	registered := keyOf()
	if out, err := set(first); err != nil || !strings.Contains(out, "already registered") || keyOf() != registered {
		t.Fatalf("same key again: %v\n%s", err, out)
	}
	if out, err := set(second); err == nil || !strings.Contains(err.Error(), "--replace") || keyOf() != registered {
		t.Fatalf("another key without --replace: %v\n%s", err, out)
	}
	out, err := set(second, "--replace")
	if err != nil || !strings.Contains(out, "WARNING: REPLACING the device key of terminal T1: "+keyID(first)+" -> "+keyID(second)) || keyOf() == registered {
		t.Fatalf("--replace: %v\n%s", err, out)
	}
	if reg, _ := server.LoadRegistry(data); len(reg.DeviceKeys()("T1")) != 2 {
		t.Fatalf("the replaced key is not kept retired: %+v", reg.Terminals)
	}
	if out, err := set(first, "--replace"); err != nil || !strings.Contains(out, "REPLACING") { // back to the first: not retired twice
		t.Fatalf("--replace back: %v\n%s", err, out)
	}
	if reg, _ := server.LoadRegistry(data); len(reg.DeviceKeys()("T1")) != 2 || keyOf() != registered {
		t.Fatalf("back to the first key: %+v", reg.Terminals)
	}
	if _, err := runNet(t, "fleet", "set-device-key", "--data", data, "--id", "T9", "--pub", pubOf(first)); err == nil {
		t.Error("unknown terminal accepted")
	}
	if _, err := runNet(t, "fleet", "set-device-key", "--data", data, "--id", "T1", "--pub", filepath.Join(first, journal.DeviceKeyFile)); err == nil {
		t.Error("a private key file accepted")
	}
	if out, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T2", "--retailer", "5", "--out", filepath.Join(creds, "T2.nk"),
		"--device-pub", pubOf(first)); err != nil {
		t.Fatalf("add-terminal --device-pub: %v\n%s", err, out)
	}
	reg, _ := server.LoadRegistry(data)
	if tm, _ := reg.Terminal("T2"); tm.DevicePub != registered {
		t.Errorf("add-terminal --device-pub: %q, want %q", tm.DevicePub, registered)
	}
}
