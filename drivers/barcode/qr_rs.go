package barcode

// Reed–Solomon decoding with erasures for QR codewords, GF(256) over x⁸+x⁴+x³+x²+1 with
// the generator's roots α⁰…α^(n−k−1) (ISO/IEC 18004). gozxing's decoder corrects errors
// only; a module the sampler cannot see (under a glare spot) is better declared unknown:
// n−k check codewords correct e errors and ρ erasures as long as 2e + ρ ≤ n − k.

var gfExp, gfLog = gfTables()

func gfTables() (exp [512]byte, log [256]byte) {
	x := 1
	for i := range 255 {
		exp[i] = byte(x)
		log[x] = byte(i)
		x <<= 1
		if x&0x100 != 0 {
			x ^= 0x11D
		}
	}
	for i := 255; i < 512; i++ {
		exp[i] = exp[i-255]
	}
	return exp, log
}

func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+int(gfLog[b])]
}

// gfDiv returns a/b; b must not be 0.
func gfDiv(a, b byte) byte {
	if a == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+255-int(gfLog[b])]
}

// gfPow returns α^e for any integer e.
func gfPow(e int) byte { return gfExp[((e%255)+255)%255] }

// polyEval evaluates p (coefficients lowest degree first) at x.
func polyEval(p []byte, x byte) byte {
	var y byte
	for i := len(p) - 1; i >= 0; i-- {
		y = gfMul(y, x) ^ p[i]
	}
	return y
}

// rsSlack is the number of check codewords a correction leaves unused (2e + ρ ≤ n−k−rsSlack),
// so that a word far from every codeword is refused rather than "corrected" into one.
const rsSlack = 2

// rsCorrect corrects cw in place: a Reed–Solomon block of len(cw) codewords, the last nsym
// of them check codewords (cw[0] is the highest power), some at the positions erased
// unknown. It returns the number of errors corrected besides the erasures, and false when the
// block is beyond correction with rsSlack check codewords to spare (cw is then unchanged).
func rsCorrect(cw []byte, nsym int, erased []int) (int, bool) {
	n := len(cw)
	if nsym <= 0 || nsym >= n || n > 255 || len(erased) > nsym-rsSlack {
		return 0, false
	}
	// Syndromes S_j = r(α^j).
	synd := make([]byte, nsym)
	zero := true
	for j := range synd {
		var s byte
		x := gfPow(j)
		for _, c := range cw {
			s = gfMul(s, x) ^ c
		}
		synd[j] = s
		zero = zero && s == 0
	}
	if zero {
		return 0, true
	}
	// Erasure locator Γ(x) = Π (1 − X_k x), X_k = α^(n−1−position).
	gamma := []byte{1}
	seen := make([]bool, n)
	for _, p := range erased {
		if p < 0 || p >= n || seen[p] {
			return 0, false
		}
		seen[p] = true
		xk := gfPow(n - 1 - p)
		next := make([]byte, len(gamma)+1)
		for i, c := range gamma {
			next[i] ^= c
			next[i+1] ^= gfMul(c, xk)
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
			delta ^= gfMul(lambda[j], synd[r-1-j])
		}
		xb := append([]byte{0}, b...) // x·B(x)
		if delta == 0 {
			b = xb
			continue
		}
		t := make([]byte, max(len(lambda), len(xb)))
		copy(t, lambda)
		for i, c := range xb {
			t[i] ^= gfMul(delta, c)
		}
		if 2*l <= r+rho-1 {
			l = r + rho - l
			b = make([]byte, len(lambda))
			for i, c := range lambda {
				b[i] = gfDiv(c, delta)
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
		if polyEval(lambda, gfPow(-(n-1-p))) == 0 {
			pos = append(pos, p)
		}
	}
	if len(pos) != deg {
		return 0, false
	}
	// Forney: Ω(x) = S(x)Λ(x) mod x^nsym; e_k = X_k Ω(X_k^−1) / Λ'(X_k^−1).
	omega := make([]byte, nsym)
	for i, c := range lambda {
		for j := 0; i+j < nsym && j < nsym; j++ {
			omega[i+j] ^= gfMul(c, synd[j])
		}
	}
	deriv := make([]byte, len(lambda))
	for i := 1; i < len(lambda); i += 2 {
		deriv[i-1] = lambda[i]
	}
	fixed := append([]byte(nil), cw...)
	for _, p := range pos {
		xk := gfPow(n - 1 - p)
		xinv := gfPow(-(n - 1 - p))
		den := polyEval(deriv, xinv)
		if den == 0 {
			return 0, false
		}
		fixed[p] ^= gfMul(xk, gfDiv(polyEval(omega, xinv), den))
	}
	// The corrected block must be a codeword.
	for j := range nsym {
		var s byte
		x := gfPow(j)
		for _, c := range fixed {
			s = gfMul(s, x) ^ c
		}
		if s != 0 {
			return 0, false
		}
	}
	copy(cw, fixed)
	return errs, true
}
