package game

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzParsePlay: any text, for any game number, is either refused with an error or read
// into a play whose compact form is exactly that text; evaluating it never panics.
func FuzzParsePlay(f *testing.F) {
	d := Reglement()
	r := testRand(7)
	for n := 1; n <= 8; n++ {
		for _, t := range d.Game(n).Tiers[:2] {
			p, _ := d.Generate(r, n, t.Amount)
			f.Add(uint8(n), EncodePlay(p))
		}
		p, _ := d.Generate(r, n, 0)
		f.Add(uint8(n), EncodePlay(p))
	}
	f.Add(uint8(7), "VIP:20|VC:3,BG:6,CS:30|PE,PE,BU,BA,PE,VG|3+4:10|x2a|")
	f.Add(uint8(3), "CK,CK|007")
	f.Fuzz(func(t *testing.T, n uint8, s string) {
		p, err := ParsePlay(int(n), s)
		if err != nil {
			if p != nil {
				t.Fatal("a play and an error")
			}
			return
		}
		if enc := EncodePlay(p); enc != s {
			t.Fatalf("%q reads as a play encoded %q", s, enc)
		}
		lot, err := d.Evaluate(p)
		if err == nil && lot != 0 && !d.Game(int(n)).HasLot(lot) {
			t.Fatalf("%q wins %v, not a lot of game %d", s, lot, n)
		}
		_ = p.Describe()
	})
}

// FuzzParseSource: a definition file is refused with an error or yields a definition that
// validates and survives its own JSON round trip.
func FuzzParseSource(f *testing.F) {
	f.Add(ReglementSource())
	f.Add([]byte(`{"pack_price_eur":1,"block_packs":1,"tickets_per_pack":1,"pack":{"tiers":[{"count":1,"amount_eur":1,"total_eur":1}],"total_count":1,"total_eur":1,"winners_per_pack":[1],"min_eur":1},"games":[{"number":1,"name":"x","tiers":[{"count":1,"amount_eur":1,"total_eur":1}],"total_count":1,"total_eur":1}]}`))
	f.Add([]byte(`{"pack_price_eur":1e300}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseSource(data)
		if err != nil {
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("ParseSource accepted an invalid definition: %v", err)
		}
		b, _ := json.Marshal(d)
		e, err := ParseJSON(b)
		if err != nil {
			t.Fatalf("own JSON refused: %v", err)
		}
		c, _ := json.Marshal(e)
		if !bytes.Equal(b, c) {
			t.Fatal("JSON round trip changed the definition")
		}
	})
}
