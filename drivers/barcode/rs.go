package barcode

// Reed–Solomon decoding with erasures for QR and DataMatrix codewords. gozxing's decoders
// correct errors only; a module the sampler cannot see (under a glare spot, a finger) is
// better declared unknown: n−k check codewords correct e errors and ρ erasures as long as
// 2e + ρ ≤ n − k.

// rsField is GF(256) built on a primitive polynomial, with the power of α of its codes'
// first generator root: QR's (x⁸+x⁴+x³+x²+1, roots α⁰…) and DataMatrix's (x⁸+x⁵+x³+x²+1,
// roots α¹…, ISO/IEC 16022 5.7.2).
type rsField struct {
	exp [512]byte
	log [256]byte
	fcr int
}

var (
	qrField = newRSField(0x11D, 0)
	dmField = newRSField(0x12D, 1)
)

func newRSField(poly, fcr int) *rsField {
	f := &rsField{fcr: fcr}
	x := 1
	for i := range 255 {
		f.exp[i] = byte(x)
		f.log[x] = byte(i)
		x <<= 1
		if x&0x100 != 0 {
			x ^= poly
		}
	}
	for i := 255; i < 512; i++ {
		f.exp[i] = f.exp[i-255]
	}
	return f
}

func (f *rsField) mul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return f.exp[int(f.log[a])+int(f.log[b])]
}

// div returns a/b; b must not be 0.
func (f *rsField) div(a, b byte) byte {
	if a == 0 {
		return 0
	}
	return f.exp[int(f.log[a])+255-int(f.log[b])]
}

// pow returns α^e for any integer e.
func (f *rsField) pow(e int) byte { return f.exp[((e%255)+255)%255] }

// eval evaluates p (coefficients lowest degree first) at x.
func (f *rsField) eval(p []byte, x byte) byte {
	var y byte
	for i := len(p) - 1; i >= 0; i-- {
		y = f.mul(y, x) ^ p[i]
	}
	return y
}

// syndromes returns S_j = r(α^(fcr+j)), j < nsym, of the block cw (cw[0] the highest
// power), and whether they are all zero (cw is a codeword).
func (f *rsField) syndromes(cw []byte, nsym int) ([]byte, bool) {
	synd := make([]byte, nsym)
	zero := true
	for j := range synd {
		var s byte
		x := f.pow(f.fcr + j)
		for _, c := range cw {
			s = f.mul(s, x) ^ c
		}
		synd[j] = s
		zero = zero && s == 0
	}
	return synd, zero
}

// rsSlack is the number of check codewords a correction leaves unused (2e + ρ ≤ n−k−rsSlack),
// so that a word far from every codeword is refused rather than "corrected" into one.
const rsSlack = 2

// correct corrects cw in place: a Reed–Solomon block of len(cw) codewords, the last nsym
// of them check codewords (cw[0] is the highest power), some at the positions erased
// unknown. It returns the number of errors corrected besides the erasures, and false when the
// block is beyond correction with rsSlack check codewords to spare (cw is then unchanged).
func (f *rsField) correct(cw []byte, nsym int, erased []int) (int, bool) {
	if !rsShapeOK(len(cw), nsym, len(erased)) {
		return 0, false
	}
	synd, zero := f.syndromes(cw, nsym)
	if zero {
		return 0, true
	}
	return f.correctSyndromes(cw, synd, erased)
}

// rsShapeOK reports whether a block of n codewords, nsym of them check codewords, with rho
// erased, is one correct can work on.
func rsShapeOK(n, nsym, rho int) bool {
	return nsym > 0 && nsym < n && n <= 255 && rho <= nsym-rsSlack
}

// correctSyndromes is correct from cw's syndromes (not all zero; len(synd) check
// codewords), computed already.
func (f *rsField) correctSyndromes(cw, synd []byte, erased []int) (int, bool) {
	n, nsym := len(cw), len(synd)
	if !rsShapeOK(n, nsym, len(erased)) {
		return 0, false
	}
	// Erasure locator Γ(x) = Π (1 − X_k x), X_k = α^(n−1−position).
	gamma := []byte{1}
	seen := make([]bool, n)
	for _, p := range erased {
		if p < 0 || p >= n || seen[p] {
			return 0, false
		}
		seen[p] = true
		xk := f.pow(n - 1 - p)
		next := make([]byte, len(gamma)+1)
		for i, c := range gamma {
			next[i] ^= c
			next[i+1] ^= f.mul(c, xk)
		}
		gamma = next
	}
	// Berlekamp–Massey from the erasure locator: Λ(x) locates erasures and errors.
	rho := len(erased)
	lambda := append([]byte(nil), gamma...)
	b := append([]byte(nil), gamma...)
	l := rho
	for r := rho + 1; r <= nsym; r++ {
		var delta byte
		for j := 0; j < len(lambda) && j <= r-1; j++ {
			delta ^= f.mul(lambda[j], synd[r-1-j])
		}
		xb := append([]byte{0}, b...) // x·B(x)
		if delta == 0 {
			b = xb
			continue
		}
		t := make([]byte, max(len(lambda), len(xb)))
		copy(t, lambda)
		for i, c := range xb {
			t[i] ^= f.mul(delta, c)
		}
		if 2*l <= r+rho-1 {
			l = r + rho - l
			b = make([]byte, len(lambda))
			for i, c := range lambda {
				b[i] = f.div(c, delta)
			}
		} else {
			b = xb
		}
		lambda = t
	}
	for len(lambda) > 1 && lambda[len(lambda)-1] == 0 {
		lambda = lambda[:len(lambda)-1]
	}
	deg := len(lambda) - 1
	errs := l - rho
	if deg != l || errs < 0 || 2*errs+rho > nsym-rsSlack {
		return 0, false
	}
	// Chien search: the positions whose X^−1 is a root of Λ.
	var pos []int
	for p := range n {
		if f.eval(lambda, f.pow(-(n-1-p))) == 0 {
			pos = append(pos, p)
		}
	}
	if len(pos) != deg {
		return 0, false
	}
	// Forney: Ω(x) = S(x)Λ(x) mod x^nsym; e_k = X_k^(1−fcr) Ω(X_k^−1) / Λ'(X_k^−1).
	omega := make([]byte, nsym)
	for i, c := range lambda {
		for j := 0; i+j < nsym && j < nsym; j++ {
			omega[i+j] ^= f.mul(c, synd[j])
		}
	}
	deriv := make([]byte, len(lambda))
	for i := 1; i < len(lambda); i += 2 {
		deriv[i-1] = lambda[i]
	}
	fixed := append([]byte(nil), cw...)
	for _, p := range pos {
		xinv := f.pow(-(n - 1 - p))
		den := f.eval(deriv, xinv)
		if den == 0 {
			return 0, false
		}
		fixed[p] ^= f.mul(f.pow((1-f.fcr)*(n-1-p)), f.div(f.eval(omega, xinv), den))
	}
	// The corrected block must be a codeword.
	if _, zero := f.syndromes(fixed, nsym); !zero {
		return 0, false
	}
	copy(cw, fixed)
	return errs, true
}
