package game

import (
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"sync"

	"github.com/packterm/pos/internal/strictjson"
)

//go:embed reglement.json
var reglementJSON []byte

// Tier is one line of a prize table: Count lots of Amount each.
type Tier struct {
	Amount Cents `json:"amount_cents"`
	Count  int   `json:"count"`
	Total  Cents `json:"total_cents"`
}

// Game is one of the eight games of article 4 (sub-articles 4.2 to 4.9).
type Game struct {
	Number     int    `json:"number"`
	Article    string `json:"article"`
	Name       string `json:"name"`
	Tiers      []Tier `json:"tiers"`
	TotalCount int    `json:"total_count"`
	Total      Cents  `json:"total_cents"`
	// MultiplicationOnly lists lots reachable only by a phase-2 multiplier (4.6.2).
	MultiplicationOnly []Cents `json:"multiplication_only_cents,omitempty"`
	// CumulationOnly lists lots reachable only by adding several winning surfaces
	// of the ticket (4.7.2, 4.8.2).
	CumulationOnly []Cents `json:"cumulation_only_cents,omitempty"`
}

// Definition is the whole game of the règlement: the pack (articles 2 and 3) and the
// eight games (article 4). Treat a Definition as read-only once built.
type Definition struct {
	PackPrice      Cents `json:"pack_price_cents"`
	BlockPacks     int   `json:"block_packs"`
	TicketsPerPack int   `json:"tickets_per_pack"`
	// PackTable is the table of article 3.1: the global lot of each pack of a block.
	PackTable      []Tier `json:"pack_table"`
	PackTotalCount int    `json:"pack_total_count"`
	PackTotal      Cents  `json:"pack_total_cents"`
	// PackCumulationOnly lists pack amounts reachable only by adding several winning
	// tickets of the pack (3.1).
	PackCumulationOnly []Cents `json:"pack_cumulation_only_cents"`
	// WinnersPerPack is the set of allowed numbers of winning tickets in a pack (3.2).
	WinnersPerPack []int `json:"winners_per_pack"`
	// PackMinimum is the least a pack wins (3.2).
	PackMinimum Cents  `json:"pack_minimum_cents"`
	Games       []Game `json:"games"`
}

// Source file shapes: euros, as printed in the règlement.
type srcTier struct {
	Count  int   `json:"count"`
	Amount int64 `json:"amount_eur"`
	Total  int64 `json:"total_eur"`
}

type srcGame struct {
	Number             int       `json:"number"`
	Article            string    `json:"article"`
	Name               string    `json:"name"`
	Tiers              []srcTier `json:"tiers"`
	TotalCount         int       `json:"total_count"`
	Total              int64     `json:"total_eur"`
	MultiplicationOnly []int64   `json:"multiplication_only_eur"`
	CumulationOnly     []int64   `json:"cumulation_only_eur"`
}

type srcDefinition struct {
	Source         string `json:"source"`
	Comment        string `json:"comment"`
	PackPrice      int64  `json:"pack_price_eur"`
	BlockPacks     int    `json:"block_packs"`
	TicketsPerPack int    `json:"tickets_per_pack"`
	Pack           struct {
		Article        string    `json:"article"`
		Tiers          []srcTier `json:"tiers"`
		TotalCount     int       `json:"total_count"`
		Total          int64     `json:"total_eur"`
		CumulationOnly []int64   `json:"cumulation_only_eur"`
		WinnersPerPack []int     `json:"winners_per_pack"`
		Min            int64     `json:"min_eur"`
	} `json:"pack"`
	Games []srcGame `json:"games"`
}

// maxEuros bounds every amount read from a file, and maxCount every count, so that
// no product or total can overflow.
const (
	maxEuros = 10_000_000
	maxCount = 100_000_000
	maxTiers = 64
	maxGames = 16
)

var reglement = sync.OnceValue(func() *Definition {
	d, err := ParseSource(reglementJSON)
	if err != nil {
		panic("game: embedded reglement.json is invalid: " + err.Error())
	}
	return d
})

// Reglement returns the game of the règlement, from the embedded reglement.json.
// It is shared: do not modify it (use Clone for a copy to change).
func Reglement() *Definition { return reglement() }

// ReglementSource returns the embedded source file, as transcribed from the règlement.
func ReglementSource() []byte { return bytes.Clone(reglementJSON) }

// ParseSource reads a game definition in the source format of reglement.json (euros,
// stated TOTAL columns) and validates it (see Validate).
func ParseSource(data []byte) (*Definition, error) {
	var src srcDefinition
	if err := strictjson.Unmarshal(data, &src); err != nil {
		return nil, fmt.Errorf("game: reading definition: %w", err)
	}
	conv := func(e int64) (Cents, error) {
		if e < 0 || e > maxEuros {
			return 0, fmt.Errorf("game: reading definition: amount %d € out of range", e)
		}
		return Euros(e), nil
	}
	tiers := func(in []srcTier) ([]Tier, error) {
		out := make([]Tier, len(in))
		for i, t := range in {
			a, err := conv(t.Amount)
			if err != nil {
				return nil, err
			}
			if t.Total < 0 || t.Total > maxEuros*1000 {
				return nil, fmt.Errorf("game: reading definition: total %d € out of range", t.Total)
			}
			out[i] = Tier{Amount: a, Count: t.Count, Total: Euros(t.Total)}
		}
		return out, nil
	}
	amounts := func(in []int64) ([]Cents, error) {
		var out []Cents
		for _, e := range in {
			a, err := conv(e)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return out, nil
	}
	var d Definition
	var err error
	if d.PackPrice, err = conv(src.PackPrice); err != nil {
		return nil, err
	}
	d.BlockPacks, d.TicketsPerPack = src.BlockPacks, src.TicketsPerPack
	if d.PackTable, err = tiers(src.Pack.Tiers); err != nil {
		return nil, err
	}
	d.PackTotalCount = src.Pack.TotalCount
	if src.Pack.Total < 0 || src.Pack.Total > maxEuros*1000 {
		return nil, fmt.Errorf("game: reading definition: pack total %d € out of range", src.Pack.Total)
	}
	d.PackTotal = Euros(src.Pack.Total)
	if d.PackCumulationOnly, err = amounts(src.Pack.CumulationOnly); err != nil {
		return nil, err
	}
	d.WinnersPerPack = src.Pack.WinnersPerPack
	if d.PackMinimum, err = conv(src.Pack.Min); err != nil {
		return nil, err
	}
	for _, sg := range src.Games {
		g := Game{Number: sg.Number, Article: sg.Article, Name: sg.Name, TotalCount: sg.TotalCount}
		if g.Tiers, err = tiers(sg.Tiers); err != nil {
			return nil, err
		}
		if sg.Total < 0 || sg.Total > maxEuros*1000 {
			return nil, fmt.Errorf("game: reading definition: game %d total %d € out of range", sg.Number, sg.Total)
		}
		g.Total = Euros(sg.Total)
		if g.MultiplicationOnly, err = amounts(sg.MultiplicationOnly); err != nil {
			return nil, err
		}
		if g.CumulationOnly, err = amounts(sg.CumulationOnly); err != nil {
			return nil, err
		}
		d.Games = append(d.Games, g)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// ParseJSON reads a definition in its own JSON form (as MarshalJSON writes it, in
// cents; e.g. from a ledger header, signed) and validates it. It is strict JSON
// (internal/strictjson: no duplicate key, no key in another case, nothing unknown), so
// that every reader of a signed definition sees the same one.
func ParseJSON(data []byte) (*Definition, error) {
	var d Definition
	if err := strictjson.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("game: reading definition: %w", err)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// Clone returns a deep copy of d.
func (d *Definition) Clone() *Definition {
	c := *d
	c.PackTable = slices.Clone(d.PackTable)
	c.PackCumulationOnly = slices.Clone(d.PackCumulationOnly)
	c.WinnersPerPack = slices.Clone(d.WinnersPerPack)
	c.Games = make([]Game, len(d.Games))
	for i, g := range d.Games {
		g.Tiers = slices.Clone(g.Tiers)
		g.MultiplicationOnly = slices.Clone(g.MultiplicationOnly)
		g.CumulationOnly = slices.Clone(g.CumulationOnly)
		c.Games[i] = g
	}
	return &c
}

// Game returns game n (1-based, = ticket position in the pack), or nil.
func (d *Definition) Game(n int) *Game {
	if n < 1 || n > len(d.Games) {
		return nil
	}
	return &d.Games[n-1]
}

// TicketsPerBlock is the number of tickets of a block.
func (d *Definition) TicketsPerBlock() int { return d.BlockPacks * d.TicketsPerPack }

// HasLot reports whether amount is a lot of game g's table.
func (g *Game) HasLot(amount Cents) bool {
	for _, t := range g.Tiers {
		if t.Amount == amount {
			return true
		}
	}
	return false
}

// Winners is the number of winning tickets of the game in a block.
func (g *Game) Winners() int {
	n := 0
	for _, t := range g.Tiers {
		n += t.Count
	}
	return n
}
