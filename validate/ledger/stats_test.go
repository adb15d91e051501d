package ledger

import (
	"encoding/binary"
	"math"
	mrand "math/rand/v2"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// chiSquare2 is Pearson's statistic of a 2×k contingency table (two samples of counts
// over the same k bins): are the two samples drawn from one distribution? Bins empty in
// both samples are skipped; dof is the number of bins used minus one.
func chiSquare2(a, b []int) (stat float64, dof int) {
	var na, nb float64
	for i := range a {
		na += float64(a[i])
		nb += float64(b[i])
	}
	for i := range a {
		col := float64(a[i] + b[i])
		if col == 0 {
			continue
		}
		dof++
		ea, eb := col*na/(na+nb), col*nb/(na+nb)
		stat += (float64(a[i])-ea)*(float64(a[i])-ea)/ea + (float64(b[i])-eb)*(float64(b[i])-eb)/eb
	}
	return stat, dof - 1
}

// chiCritical is a conservative upper bound of the chi-square quantile at p = 1e-6 for
// dof degrees of freedom (Wilson–Hilferty with z = 4.9).
func chiCritical(dof int) float64 {
	k := float64(dof)
	z := 4.9
	return k * math.Pow(1-2/(9*k)+z*math.Sqrt(2/(9*k)), 3)
}

// entryHist bins entries for the test: the sealed tier nibble (16 bins), each of the
// eight bytes of the check (256 bins each) and each of the 68 bits (2 bins each).
type entryHist struct {
	nibble [16]int
	bytes  [8][256]int
	bits   [EntryBits][2]int
}

func (h *entryHist) add(e Entry) {
	h.nibble[e.Tier&0xf]++
	for k := range 8 {
		h.bytes[k][byte(e.Check>>(8*k))]++
	}
	for k := range CheckBits {
		h.bits[k][e.Check>>k&1]++
	}
	for k := range TierBits {
		h.bits[CheckBits+k][e.Tier>>k&1]++
	}
}

// indistinguishable runs the chi-square tests of winners against losers and returns the
// failures.
func indistinguishable(win, lose *entryHist) []string {
	var fails []string
	check := func(name string, a, b []int) {
		stat, dof := chiSquare2(a, b)
		if stat > chiCritical(dof) {
			fails = append(fails, name)
		}
	}
	check("tier nibble", win.nibble[:], lose.nibble[:])
	for k := range 8 {
		check("check byte", win.bytes[k][:], lose.bytes[k][:])
	}
	for k := range EntryBits {
		check("bit", win.bits[k][:], lose.bits[k][:])
	}
	return fails
}

// TestWinnersIndistinguishable: without the secrets, the entries of winning tickets and of
// losing tickets have the same distribution (chi-square of winners against losers over
// the tier nibble, each check byte and each bit, at p = 1e-6). The same test applied to
// tiers sealed without the pad must tell them apart, which shows it has the power to.
func TestWinnersIndistinguishable(t *testing.T) {
	n := 400_000
	if testing.Short() {
		n = 100_000
	}
	r := mrand.New(mrand.NewPCG(11, 12))
	var win, lose, winPlain, losePlain entryHist
	for i := range n {
		var s [codes.SecretSize]byte
		binary.LittleEndian.PutUint64(s[:], r.Uint64())
		binary.LittleEndian.PutUint16(s[8:], uint16(r.Uint32()))
		id := codes.TicketID{Block: 42, Pack: uint32(i / 8), Position: uint8(i%8 + 1)}
		// Like the règlement: about a third of tickets win, mostly the low tiers.
		tier := uint8(0)
		if r.IntN(3) == 0 {
			tier = uint8(1 + min(r.IntN(4), r.IntN(9)))
		}
		e := Seal(id, s, tier)
		plain := Entry{Tier: tier, Check: r.Uint64()} // no pad on the tier
		if tier > 0 {
			win.add(e)
			winPlain.add(plain)
		} else {
			lose.add(e)
			losePlain.add(plain)
		}
	}
	if fails := indistinguishable(&win, &lose); len(fails) > 0 {
		t.Fatalf("winners told from losers by: %v", fails)
	}
	if fails := indistinguishable(&winPlain, &losePlain); len(fails) == 0 {
		t.Fatal("the test cannot tell unpadded tiers apart: it has no power")
	}
}
