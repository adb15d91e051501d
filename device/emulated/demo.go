package emulated

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// DemoFile is the name of the codes to try, kept beside the demo ledger.
const DemoFile = "demo-codes.json"

// DemoCode is one code to try.
type DemoCode struct {
	What   string `json:"what"`             // "pack", "ticket", "winner", "loser"
	Code   string `json:"code"`             // as scanned
	Amount int64  `json:"amount,omitempty"` // cents, for a winner
	Game   int    `json:"game,omitempty"`
}

// Demo is a demo block's files.
type Demo struct {
	Dir    string
	Ledger string // the signed ledger
	Pub    string // the operator's public key
	Codes  []DemoCode
}

// LoadDemo reads the demo of dir made by a previous MakeDemo.
func LoadDemo(dir string, block uint16) (*Demo, error) {
	d := demoPaths(dir, block)
	b, err := os.ReadFile(filepath.Join(dir, DemoFile))
	if err != nil {
		return nil, fmt.Errorf("emulated: demo: %w", err)
	}
	if err := json.Unmarshal(b, &d.Codes); err != nil {
		return nil, fmt.Errorf("emulated: demo: %s: %w", DemoFile, err)
	}
	d.Codes = withTicketCode(d.Codes)
	for _, p := range []string{d.Ledger, d.Pub} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("emulated: demo: %w", err)
		}
	}
	return d, nil
}

func demoPaths(dir string, b uint16) *Demo {
	return &Demo{Dir: dir, Ledger: filepath.Join(dir, ledger.FileName(b)), Pub: filepath.Join(dir, "keys", ledger.OperatorPublicFile)}
}

// OpenOrMakeDemo loads the demo of dir, or makes it when dir has none.
func OpenOrMakeDemo(ctx context.Context, dir string, def *game.Definition, b uint16, limit int64, progress func(done, total int)) (d *Demo, made bool, err error) {
	if d, err := LoadDemo(dir, b); err == nil {
		return d, false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, err
	}
	d, err = MakeDemo(ctx, dir, def, b, limit, progress)
	return d, err == nil, err
}

// MakeDemo makes a demo block in dir: a new operator key (dir/keys), block b of def sealed
// into a signed ledger (no printer's file is written), and the codes to try: a pack code,
// a winner of each of several amounts (one above limit, when the block has one), a loser.
func MakeDemo(ctx context.Context, dir string, def *game.Definition, b uint16, limit int64, progress func(done, total int)) (*Demo, error) {
	d := demoPaths(dir, b)
	seed, err := block.NewSeed()
	if err != nil {
		return nil, err
	}
	pick := newPicker(limit)
	if err := GenerateBlock(ctx, dir, def, b, seed, pick.offer, progress); err != nil {
		return nil, err
	}
	d.Codes = pick.codes()
	data, err := json.MarshalIndent(d.Codes, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, DemoFile), append(data, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("emulated: demo: %w", err)
	}
	return d, nil
}

// GenerateBlock writes dir/keys (a new operator key, unless one is there) and block b of
// def, drawn from seed, as a signed ledger in dir; observe sees every ticket (concurrently
// from several workers). The printer's file is not written.
func GenerateBlock(ctx context.Context, dir string, def *game.Definition, b uint16, seed block.Seed, observe func(*block.Ticket), progress func(done, total int)) error {
	d := demoPaths(dir, b)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("emulated: demo: %w", err)
	}
	keyDir := filepath.Join(dir, "keys")
	if _, err := ledger.GenerateKey(keyDir); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	key, err := ledger.LoadPrivateKey(filepath.Join(keyDir, ledger.OperatorPrivateFile))
	if err != nil {
		return err
	}
	plan, err := block.NewPlan(def, b, seed)
	if err != nil {
		return err
	}
	h := ledger.Header{Block: b, Version: 1, Packs: uint32(def.BlockPacks), Definition: def}
	entries := ledger.NewEntries(h.Entries())
	total := def.TicketsPerBlock()
	err = plan.Generate(ctx, block.Output{
		Print: io.Discard,
		Ticket: func(t *block.Ticket) error {
			entries.Set(h.Index(t.ID), ledger.Seal(t.ID, t.Secret, t.Tier))
			if observe != nil {
				observe(t)
			}
			return nil
		},
		Progress: func(done int) {
			if progress != nil {
				progress(done, total)
			}
		},
	})
	if err != nil {
		return err
	}
	return ledger.Write(d.Ledger, h, entries, key)
}

// withTicketCode adds, to the codes of a demo made before they had one, the ticket code
// (ITF, on the ticket's back) of the loser's ticket.
func withTicketCode(cs []DemoCode) []DemoCode {
	for _, c := range cs {
		if c.What == "ticket" {
			return cs
		}
	}
	for i, c := range cs {
		if v, err := codes.ParseValidation(c.Code); c.What == "loser" && err == nil {
			t := DemoCode{What: "ticket", Code: codes.TicketCodeOf(v.ID()).String(), Game: c.Game}
			at := min(1, i) // after the pack code
			return slices.Insert(slices.Clone(cs), at, t)
		}
	}
	return cs
}

// picker keeps, while the block is drawn, a few codes worth trying.
type picker struct {
	limit   int64
	mu      sync.Mutex
	pack    *codes.PackCode
	loser   *DemoCode
	winners map[int64]DemoCode
}

func newPicker(limit int64) *picker { return &picker{limit: limit, winners: map[int64]DemoCode{}} }

func (p *picker) offer(t *block.Ticket) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pack == nil || t.ID.Pack < p.pack.Pack {
		p.pack = &codes.PackCode{Block: t.ID.Block, Pack: t.ID.Pack}
	}
	code := codes.ValidationCodeOf(t.ID, t.Secret).String()
	if t.Tier == 0 {
		if p.loser == nil {
			p.loser = &DemoCode{What: "loser", Code: code, Game: int(t.ID.Position)}
		}
		return
	}
	a := int64(t.Lot)
	if _, ok := p.winners[a]; !ok {
		p.winners[a] = DemoCode{What: "winner", Code: code, Amount: a, Game: int(t.ID.Position)}
	}
}

// codes picks the pack, the ticket code (ITF) of the loser's ticket, up to four winners
// within the limit (smallest amounts), the smallest winner above it, and a loser.
func (p *picker) codes() []DemoCode {
	var out []DemoCode
	if p.pack != nil {
		out = append(out, DemoCode{What: "pack", Code: p.pack.String()})
	}
	if p.loser != nil {
		if v, err := codes.ParseValidation(p.loser.Code); err == nil {
			out = append(out, DemoCode{What: "ticket", Code: codes.TicketCodeOf(v.ID()).String(), Game: p.loser.Game})
		}
	}
	var amounts []int64
	for a := range p.winners {
		amounts = append(amounts, a)
	}
	slices.Sort(amounts)
	var within []int64
	for _, a := range amounts {
		if a <= p.limit {
			within = append(within, a)
		}
	}
	// Four amounts spread over those within the limit: the smallest, the largest, two between.
	picked := map[int64]bool{}
	for i := range 4 {
		if len(within) > 0 {
			picked[within[i*(len(within)-1)/3]] = true
		}
	}
	above := false
	for _, a := range amounts {
		switch {
		case picked[a]:
			out = append(out, p.winners[a])
		case a > p.limit && !above:
			w := p.winners[a]
			w.What = "winner above the limit"
			out = append(out, w)
			above = true
		}
	}
	if p.loser != nil {
		out = append(out, *p.loser)
	}
	return out
}
