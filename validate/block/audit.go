package block

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// AuditOptions tune an audit.
type AuditOptions struct {
	Workers  int
	Progress func(rows int) // called from one goroutine
}

// maxSamples bounds the problems a report quotes (all are counted).
const maxSamples = 50

// A Report is what an audit found: the tables re-derived from the printer's file, and
// every discrepancy with the règlement, the codes, the plays or the sealed ledger.
type Report struct {
	Block       uint16
	Definition  *game.Definition // the ledger's (signed) definition
	IsReglement bool             // it is the règlement's, to the unit
	LedgerKey   ledger.KeyID
	LedgerRoot  [32]byte
	PrintSHA256 [32]byte
	Rows        int
	Packs       int                  // packs with all their tickets
	PackCounts  map[game.Cents]int   // packs by global lot
	GameCounts  []map[game.Cents]int // winning tickets by game and lot
	ByWinners   [MaxGames + 1]int    // packs by number of winning tickets
	Checked     struct {
		Codes, Plays, Ledger int // rows whose codes, play and ledger entry agree
	}
	Problems int
	Samples  []string
}

// OK reports whether the audit found nothing wrong.
func (r *Report) OK() bool { return r.Problems == 0 }

func (r *Report) problem(format string, args ...any) {
	r.Problems++
	if len(r.Samples) < maxSamples {
		r.Samples = append(r.Samples, fmt.Sprintf(format, args...))
	}
}

// batch is a run of lines of the printer's file.
type batch struct {
	first int // line number of the first line (1 = header)
	data  []byte
}

// packState accumulates one pack's tickets from any worker.
type packState struct {
	seen    atomic.Uint32 // bit k-1: position k seen
	sum     atomic.Int64
	winners atomic.Int32
}

type workerTally struct {
	codes, plays, ledger int
	games                []map[game.Cents]int
	problems             int
	samples              []string
}

func (t *workerTally) problem(line int, format string, args ...any) {
	t.problems++
	if len(t.samples) < maxSamples {
		t.samples = append(t.samples, fmt.Sprintf("ligne %d : ", line)+fmt.Sprintf(format, args...))
	}
}

// Audit reads the printer's file (gzip) and checks it against the sealed ledger l and
// the règlement: every row's codes, play and ledger entry, every pack's rules (3.1,
// 3.2, 4.1), and every table re-derived from the rows (3.1, 4.x.2). Problems go into
// the report; an error means the audit could not run (unreadable input).
func Audit(ctx context.Context, print io.Reader, l *ledger.Ledger, opts AuditOptions) (*Report, error) {
	h := l.Header()
	d := h.Definition
	rep := &Report{Block: h.Block, Definition: d, LedgerKey: l.KeyID(), LedgerRoot: l.Root()}
	a, _ := json.Marshal(d)
	b, _ := json.Marshal(game.Reglement())
	rep.IsReglement = string(a) == string(b)
	packs := int(h.Packs)
	state := make([]packState, packs)

	hash := sha256.New()
	zr, err := gzip.NewReader(io.TeeReader(print, hash))
	if err != nil {
		return nil, fmt.Errorf("block: audit: reading the printer's file: %w", err)
	}
	br := bufio.NewReaderSize(zr, 1<<20)
	header, err := br.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("block: audit: reading the printer's file header: %w", err)
	}
	if header != PrintHeader {
		rep.problem("ligne 1 : en-tête %q, attendu %q", header, PrintHeader)
	}

	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batches := make(chan batch, workers)
	tallies := make([]*workerTally, workers)
	var wg sync.WaitGroup
	for w := range workers {
		t := &workerTally{games: make([]map[game.Cents]int, len(d.Games))}
		for g := range t.games {
			t.games[g] = map[game.Cents]int{}
		}
		tallies[w] = t
		wg.Add(1)
		go func() {
			defer wg.Done()
			for bt := range batches {
				auditBatch(bt, t, state, l, d, h.Block)
			}
		}()
	}
	rows, readErr := feed(ctx, br, batches, opts.Progress)
	close(batches)
	wg.Wait()
	if readErr != nil {
		return nil, fmt.Errorf("block: audit: reading the printer's file: %w", readErr)
	}
	// Drain what follows the last member (nothing) so that the hash covers the file.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return nil, fmt.Errorf("block: audit: reading the printer's file: %w", err)
	}
	copy(rep.PrintSHA256[:], hash.Sum(nil))
	rep.Rows = rows
	rep.GameCounts = make([]map[game.Cents]int, len(d.Games))
	for g := range rep.GameCounts {
		rep.GameCounts[g] = map[game.Cents]int{}
	}
	for _, t := range tallies {
		rep.Checked.Codes += t.codes
		rep.Checked.Plays += t.plays
		rep.Checked.Ledger += t.ledger
		for g := range t.games {
			for a, n := range t.games[g] {
				rep.GameCounts[g][a] += n
			}
		}
		rep.Problems += t.problems
		for _, s := range t.samples {
			if len(rep.Samples) < maxSamples {
				rep.Samples = append(rep.Samples, s)
			}
		}
	}
	rep.checkPacks(d, state)
	rep.checkTables(d)
	return rep, nil
}

// feed cuts the file into batches of lines.
func feed(ctx context.Context, br *bufio.Reader, out chan<- batch, progress func(int)) (int, error) {
	const batchBytes = 1 << 20
	line, rows := 2, 0
	for {
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		buf := make([]byte, 0, batchBytes+4096)
		n := 0
		for len(buf) < batchBytes {
			s, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				return rows, fmt.Errorf("line %d is longer than %d bytes", line+n, br.Size())
			}
			if len(s) > 0 {
				buf = append(buf, s...)
				if s[len(s)-1] != '\n' {
					buf = append(buf, '\n')
				}
				n++
			}
			if err == io.EOF {
				if n > 0 {
					out <- batch{first: line, data: buf}
					rows += n
				}
				if progress != nil {
					progress(rows)
				}
				return rows, nil
			}
			if err != nil {
				return rows, err
			}
		}
		out <- batch{first: line, data: buf}
		line += n
		rows += n
		if progress != nil {
			progress(rows)
		}
	}
}

func auditBatch(bt batch, t *workerTally, state []packState, l *ledger.Ledger, d *game.Definition, block uint16) {
	data := bt.data
	line := bt.first
	for len(data) > 0 {
		i := 0
		for data[i] != '\n' {
			i++
		}
		auditRow(string(data[:i]), line, t, state, l, d, block)
		data = data[i+1:]
		line++
	}
}

func auditRow(text string, line int, t *workerTally, state []packState, l *ledger.Ledger, d *game.Definition, block uint16) {
	r, err := ParseRow(text)
	if err != nil {
		t.problem(line, "%v", err)
		return
	}
	if int(r.Pack) >= len(state) {
		t.problem(line, "pack %d hors du bloc (%d packs)", r.Pack, len(state))
		return
	}
	if r.Position < 1 || int(r.Position) > d.TicketsPerPack || r.Game != r.Position {
		t.problem(line, "ticket %d du jeu %d : le ticket k du pack est le jeu k (article 4.1)", r.Position, r.Game)
		return
	}
	id := codes.TicketID{Block: block, Pack: r.Pack, Position: r.Position}
	ok := true
	vc, err := codes.ParseValidation(r.Validation)
	if err != nil {
		t.problem(line, "code de validation : %v", err)
		return
	}
	if vc.ID() != id {
		t.problem(line, "le code de validation désigne le ticket %v, la ligne le ticket %v", vc.ID(), id)
		ok = false
	}
	if pc, err := codes.ParsePack(r.PackCode); err != nil || pc != (codes.PackCode{Block: block, Pack: r.Pack}) {
		t.problem(line, "code pack %q ne désigne pas le pack %d du bloc %d (%v)", r.PackCode, r.Pack, block, err)
		ok = false
	}
	if tc, err := codes.ParseTicket(r.TicketCode); err != nil || tc != codes.TicketCodeOf(id) {
		t.problem(line, "code ticket %q ne désigne pas le ticket %v (%v)", r.TicketCode, id, err)
		ok = false
	}
	if ok {
		t.codes++
	}
	if play, err := game.ParsePlay(int(r.Game), r.Play); err != nil {
		t.problem(line, "jeu : %v", err)
	} else if lot, err := d.Evaluate(play); err != nil {
		t.problem(line, "jeu : %v", err)
	} else if lot != r.Prize {
		t.problem(line, "le jeu imprimé gagne %v, la ligne dit %v", lot, r.Prize)
	} else {
		t.plays++
	}
	if res, err := l.Lookup(vc); err != nil {
		t.problem(line, "registre : %v", err)
	} else if res.Lot != r.Prize || res.Ticket != id {
		t.problem(line, "registre : le ticket %v gagne %v, la ligne dit %v", res.Ticket, res.Lot, r.Prize)
	} else {
		t.ledger++
	}
	if r.Prize != 0 {
		t.games[r.Game-1][r.Prize]++
	}
	ps := &state[r.Pack]
	bit := uint32(1) << (r.Position - 1)
	if old := ps.seen.Or(bit); old&bit != 0 {
		t.problem(line, "ticket %v en double", id)
		return
	}
	ps.sum.Add(int64(r.Prize))
	if r.Prize != 0 {
		ps.winners.Add(1)
	}
}

// checkPacks applies the pack rules to every pack and counts packs by lot.
func (rep *Report) checkPacks(d *game.Definition, state []packState) {
	rules := rulesOf(d)
	full := uint32(1)<<d.TicketsPerPack - 1
	rep.PackCounts = map[game.Cents]int{}
	for p := range state {
		ps := &state[p]
		if ps.seen.Load() != full {
			rep.problem("pack %d : tickets présents %08b, il en faut %d (article 2)", p, ps.seen.Load(), d.TicketsPerPack)
			continue
		}
		rep.Packs++
		a, w := game.Cents(ps.sum.Load()), int(ps.winners.Load())
		rep.PackCounts[a]++
		rep.ByWinners[w]++
		if !rules.allows(a, w) {
			rep.problem("pack %d : %d tickets gagnants pour %v (article 3)", p, w, a)
		}
	}
}

// checkTables compares the re-derived tables with the definition's.
func (rep *Report) checkTables(d *game.Definition) {
	compare := func(name string, tiers []game.Tier, got map[game.Cents]int) {
		seen := map[game.Cents]bool{}
		for _, t := range tiers {
			seen[t.Amount] = true
			if got[t.Amount] != t.Count {
				rep.problem("%s : %d lots de %v, le tableau en compte %d", name, got[t.Amount], t.Amount, t.Count)
			}
		}
		for a, n := range got {
			if !seen[a] {
				rep.problem("%s : %d lots de %v, montant absent du tableau", name, n, a)
			}
		}
	}
	compare("article 3.1", d.PackTable, rep.PackCounts)
	for g, gm := range d.Games {
		compare("article "+gm.Article+".2", gm.Tiers, rep.GameCounts[g])
	}
}
