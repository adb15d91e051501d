// Package testblock makes, for tests, a small generated block: eight packs of eight
// tickets of the règlement's eight games, with its signed ledger, operator key and the
// printer's file, as `posctl ledger gen` writes them.
package testblock

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// Number is the test block's number.
const Number = 7

// Definition is a feasible eight-pack game: one to seven winning tickets per pack, lots
// of 3, 5, 10 and 30 €.
const Definition = `{
  "source": "test", "comment": "eight packs", "pack_price_eur": 10, "block_packs": 8, "tickets_per_pack": 8,
  "pack": {"article": "3.1",
    "tiers": [{"count": 1, "amount_eur": 30, "total_eur": 30}, {"count": 1, "amount_eur": 10, "total_eur": 10},
              {"count": 5, "amount_eur": 5, "total_eur": 25}, {"count": 1, "amount_eur": 3, "total_eur": 3}],
    "total_count": 8, "total_eur": 68, "cumulation_only_eur": [], "winners_per_pack": [1, 2, 3, 4, 5, 7], "min_eur": 3},
  "games": [
    {"number": 1, "article": "4.2", "name": "Le p'tit dej au caviar", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 2, "article": "4.3", "name": "Buller dans mon jacuzzi", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 3, "article": "4.4", "name": "La pause farniente", "tiers": [{"count": 1, "amount_eur": 10, "total_eur": 10}], "total_count": 1, "total_eur": 10},
    {"number": 4, "article": "4.5", "name": "La virée shopping", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 5, "article": "4.6", "name": "Jouer avec les paparazzi", "tiers": [{"count": 1, "amount_eur": 30, "total_eur": 30}], "total_count": 1, "total_eur": 30},
    {"number": 6, "article": "4.7", "name": "La sortie en limousine", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 7, "article": "4.8", "name": "La soirée privée", "tiers": [{"count": 1, "amount_eur": 3, "total_eur": 3}], "total_count": 1, "total_eur": 3},
    {"number": 8, "article": "4.9", "name": "Bonus, l'after sur le yacht", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5}
  ]
}`

// Block is a generated test block's files and rows.
type Block struct {
	Dir    string
	Def    *game.Definition
	Ledger string // signed ledger file
	Pub    string // operator public key file
	Key    string // operator private key file
	Print  string // printer's file (gzip CSV)
	Rows   []block.Row
}

// Make generates the test block in dir.
func Make(ctx context.Context, dir string) (*Block, error) {
	def, err := game.ParseSource([]byte(Definition))
	if err != nil {
		return nil, err
	}
	keys := filepath.Join(dir, "keys")
	if _, err := ledger.GenerateKey(keys); err != nil {
		return nil, err
	}
	b := &Block{Dir: dir, Def: def, Pub: filepath.Join(keys, ledger.OperatorPublicFile), Key: filepath.Join(keys, ledger.OperatorPrivateFile)}
	key, err := ledger.LoadPrivateKey(b.Key)
	if err != nil {
		return nil, err
	}
	plan, err := block.NewPlan(def, Number, block.Seed{7})
	if err != nil {
		return nil, err
	}
	m, err := plan.Files(ctx, dir, 1, key, nil)
	if err != nil {
		return nil, err
	}
	b.Ledger, b.Print = filepath.Join(dir, m.Ledger), filepath.Join(dir, m.Print)
	if b.Rows, err = readRows(b.Print); err != nil {
		return nil, err
	}
	return b, nil
}

func readRows(path string) ([]block.Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var rows []block.Row
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "pack,") {
			continue
		}
		r, err := block.ParseRow(sc.Text())
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// Find returns the first row f accepts.
func (b *Block) Find(f func(block.Row) bool) (block.Row, error) {
	for _, r := range b.Rows {
		if f(r) {
			return r, nil
		}
	}
	return block.Row{}, fmt.Errorf("testblock: no such row")
}
