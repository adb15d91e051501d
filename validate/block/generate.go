package block

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// Output says where generation goes.
type Output struct {
	// Print receives the printer's file, gzip-compressed: one gzip member per chunk,
	// in chunk order (a multi-member gzip stream, as gzip(1) reads it).
	Print io.Writer
	// Ticket, when set, is called for every ticket, concurrently from several workers
	// (each ticket once; the Ticket is reused after the call returns).
	Ticket func(*Ticket) error
	// Progress, when set, is called from one goroutine with the tickets written so far.
	Progress func(done int)
	// Workers is the number of generating goroutines (default GOMAXPROCS).
	Workers int
}

type chunkResult struct {
	index int
	data  []byte
	n     int
	err   error
}

// Generate draws every ticket of the block and writes the printer's file. The output is
// a function of the plan alone: the same seed gives the same bytes whatever the number
// of workers.
func (p *Plan) Generate(ctx context.Context, out Output) error {
	workers := out.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan chunkResult, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				data, n, err := p.chunk(c, out.Ticket)
				select {
				case results <- chunkResult{c, data, n, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for c := range p.Chunks() {
			select {
			case jobs <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	// Write members in chunk order; hold early ones back (at most a few per worker).
	pending := map[int]chunkResult{}
	next, done := 0, 0
	for res := range results {
		if res.err != nil {
			return res.err
		}
		pending[res.index] = res
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if _, err := out.Print.Write(r.data); err != nil {
				return fmt.Errorf("block: writing the printer's file: %w", err)
			}
			done += r.n
			if out.Progress != nil {
				out.Progress(done)
			}
			next++
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if next != p.Chunks() {
		return fmt.Errorf("block: generation stopped after %d of %d chunks", next, p.Chunks())
	}
	return nil
}

// chunk draws chunk c and returns its rows as one gzip member.
func (p *Plan) chunk(c int, each func(*Ticket) error) ([]byte, int, error) {
	rows := make([]byte, 0, ChunkPacks*p.Def.TicketsPerPack*110)
	if c == 0 {
		rows = append(rows, PrintHeader...)
	}
	n := 0
	err := p.Tickets(c, func(t *Ticket) error {
		rows = appendRow(rows, t)
		n++
		if each != nil {
			return each(t)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	var buf bytes.Buffer
	buf.Grow(len(rows) / 4)
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if _, err := zw.Write(rows); err != nil {
		return nil, 0, err
	}
	if err := zw.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), n, nil
}
