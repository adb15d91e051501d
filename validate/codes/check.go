package codes

// dammTable is the totally anti-symmetric quasigroup of order 10 from H. M. Damm's
// thesis ("Total anti-symmetrische Quasigruppen", 2004), the table used by every Damm
// implementation. A check digit computed with it detects every single-digit error and
// every adjacent transposition.
var dammTable = [10][10]byte{
	{0, 3, 1, 7, 5, 9, 8, 6, 4, 2},
	{7, 0, 9, 2, 1, 5, 4, 8, 6, 3},
	{4, 2, 0, 6, 8, 7, 1, 3, 5, 9},
	{1, 7, 5, 0, 9, 8, 3, 4, 2, 6},
	{6, 1, 2, 3, 0, 4, 5, 9, 7, 8},
	{3, 6, 7, 4, 2, 0, 9, 5, 8, 1},
	{5, 8, 6, 9, 7, 2, 0, 1, 3, 4},
	{8, 9, 4, 5, 3, 6, 2, 0, 1, 7},
	{9, 4, 3, 8, 6, 1, 7, 2, 0, 5},
	{2, 5, 8, 1, 4, 3, 6, 7, 9, 0},
}

// dammDigit returns the Damm check digit (0..9) of the decimal digits d (values 0..9).
// Because the table has a zero diagonal, the interim after the data is the check digit.
func dammDigit(d []byte) byte {
	var c byte
	for _, x := range d {
		c = dammTable[c][x]
	}
	return c
}

// gf32Mul2 is multiplication by α in GF(32) = GF(2)[x]/(x⁵+x²+1).
var gf32Mul2 = func() (t [32]byte) {
	for v := range 32 {
		w := v << 1
		if w&0x20 != 0 {
			w ^= 0x25
		}
		t[v] = byte(w)
	}
	return
}()

// op32 is the quasigroup x∘y = α·x + y over GF(32). It is a Latin square (α ≠ 0) and
// weakly totally anti-symmetric: (c∘x)∘y = (c∘y)∘x ⇔ (α+1)(x−y) = 0 ⇔ x = y (α ≠ 1),
// which is exactly Damm's condition for detecting every adjacent transposition.
func op32(c, y byte) byte { return gf32Mul2[c] ^ y }

// check32 returns the base-32 check value (0..31) of the symbol values d (0..31): the value
// k such that running the quasigroup over d then k ends at 0 (α·c + k = 0 ⇔ k = α·c).
func check32(d []byte) byte {
	var c byte
	for _, x := range d {
		c = op32(c, x)
	}
	return gf32Mul2[c]
}
