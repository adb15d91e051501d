package main

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/daemon"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/validate/ledger"
)

// TestBoardWebShowsSlotAndRefusal: a board's status page says which firmware slot posboot
// started (and that it is on trial), and why the installed data were refused.
func TestBoardWebShowsSlotAndRefusal(t *testing.T) {
	v, err := bundle.ParseVersion("1.4.2")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	r := daemon.Running{Config: &cfg, Booted: &slot.Booted{Slot: "b", Version: v, Trial: true},
		Data: &daemon.Data{Refused: ledger.ErrHash}}
	st := boardWeb(r, nil, slog.New(slog.DiscardHandler)).Parts.Collect()
	if !strings.Contains(st.Slot, "b, firmware 1.4.2") || !strings.Contains(st.Slot, "trial") {
		t.Errorf("slot %q", st.Slot)
	}
	if st.DataRefused == "" || len(st.Ledgers) != 0 {
		t.Errorf("data refused %q, ledgers %v", st.DataRefused, st.Ledgers)
	}
	cfg.HTTPHosts = []string{"pos-0042.local"}
	o := boardWeb(daemon.Running{Config: &cfg}, nil, slog.New(slog.DiscardHandler))
	if len(o.Hosts) != 1 || o.Hosts[0] != "pos-0042.local" {
		t.Errorf("[http] hosts not passed to the page: %q", o.Hosts)
	}
	st = o.Parts.Collect()
	if !strings.Contains(st.Slot, "unknown") || st.DataRefused != "" {
		t.Errorf("without posboot: slot %q, refused %q", st.Slot, st.DataRefused)
	}
}

// TestBoardWebNamesMissing: a terminal fresh from its image (no ledger, no pack status
// list: daemon.LoadData's Missing) names them on its status page, as its panel does.
func TestBoardWebNamesMissing(t *testing.T) {
	cfg := config.Default()
	r := daemon.Running{Config: &cfg, Data: &daemon.Data{Missing: retail.MissingLedger | retail.MissingStatus}}
	st := boardWeb(r, nil, slog.New(slog.DiscardHandler)).Parts.Collect()
	if strings.Join(st.Missing, ", ") != "ledger, pack status list" {
		t.Errorf("missing %q, want the ledger and the pack status list", st.Missing)
	}
}
