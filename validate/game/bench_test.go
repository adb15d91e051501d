package game

import "testing"

// benchPlays is a mix of plays of every game and tier, winners and losers.
func benchPlays(b *testing.B) ([]Play, []string) {
	d := Reglement()
	r := testRand(8)
	var ps []Play
	var enc []string
	for n := 1; n <= 8; n++ {
		lots := []Cents{0, 0, 0}
		for _, t := range d.Game(n).Tiers {
			lots = append(lots, t.Amount)
		}
		for _, lot := range lots {
			p, err := d.Generate(r, n, lot)
			if err != nil {
				b.Fatal(err)
			}
			ps = append(ps, p)
			enc = append(enc, EncodePlay(p))
		}
	}
	return ps, enc
}

func BenchmarkEvaluate(b *testing.B) {
	d := Reglement()
	ps, _ := benchPlays(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := d.Evaluate(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerate: one play of a random game and tier (winners and losers mixed).
func BenchmarkGenerate(b *testing.B) {
	d := Reglement()
	r := testRand(9)
	type job struct {
		game int
		lot  Cents
	}
	var jobs []job
	for n := 1; n <= 8; n++ {
		jobs = append(jobs, job{n, 0}, job{n, 0})
		for _, t := range d.Game(n).Tiers {
			jobs = append(jobs, job{n, t.Amount})
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		j := jobs[i%len(jobs)]
		if _, err := d.Generate(r, j.game, j.lot); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodePlay(b *testing.B) {
	ps, _ := benchPlays(b)
	buf := make([]byte, 0, 128)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		buf = ps[i%len(ps)].AppendEncode(buf[:0])
	}
}

func BenchmarkParsePlay(b *testing.B) {
	ps, enc := benchPlays(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % len(enc)
		if _, err := ParsePlay(ps[k].Game(), enc[k]); err != nil {
			b.Fatal(err)
		}
	}
}
