package barcode

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// The second frame generator ("camera" frames) differs from the first (frames_test.go) in
// every way it can: the symbols come from zint (an independent encoder, through its --dump
// module matrix) instead of our gozxing-based Render; the ticket is seen through a pinhole
// camera (perspective tilt up to 40°, paper bent round a cylinder) at any rotation 0–360°;
// the frame is colour (RGBA, or the YCbCr of a JPEG at quality 30–70) on a blotchy coloured
// desk; optics are motion blur and a box defocus instead of a Gaussian; noise is shot noise
// (grows with brightness) instead of a fixed Gaussian; light has vignetting, hard shadows and
// glare spots; a finger may cover part of the code; the frame edge may cut the quiet zone.
//
// Every frame belongs to one distortion class (frame i: camClasses[i % len]) that it carries
// at full strength; every frame also gets a mild tilt, a rotation, defocus and noise.

type camClass int

const (
	camTilt        camClass = iota // perspective tilt 25–40°
	camCurve                       // paper bent round a cylinder
	camGlare                       // 1–2 saturating glare spots on the code
	camMotion                      // motion blur
	camJPEG                        // JPEG at quality 30–70
	camSmall                       // smallest modules (1.5 px bars, 2 px matrix modules)
	camLowContrast                 // ink 25–50 grey levels under the paper
	camShadow                      // a hard shadow edge across the code
	camFinger                      // an opaque finger over part of the code
	camEdge                        // the frame edge cuts the quiet zone
	camMixed                       // several of the above at once, each at about half its class's strength
	numCamClasses
)

// camLarge is the class of the large frames (frames_large_test.go): phone photos of 2 and
// 6.75 megapixels. It is not one of the 640×480 set's classes (frame i: class i % 11), so
// that adding it changed none of their frames.
const camLarge = numCamClasses

var camClassNames = [numCamClasses + 1]string{"tilt", "curve", "glare", "motion", "jpeg", "small",
	"lowcontrast", "shadow", "finger", "edge", "mixed", "large"}

func (c camClass) String() string { return camClassNames[c] }

// camParams records what a camera frame holds (for failure logs and docs/codes.md).
type camParams struct {
	Class   string
	Module  float64 // px per module at the code centre
	Rot     float64 // in-plane rotation, degrees
	Tilt    float64 // degrees
	Curve   float64 // cylinder radius in modules (0: flat)
	Motion  float64 // px
	JPEG    int     // quality, 0: not JPEG
	Ink     float64 // ink/paper grey levels
	Paper   float64
	Cut     bool // quiet zone cut by the frame edge
	Finger  bool
	Glare   int
	Shadow  bool
	Defocus float64
	W, H    int     // frame size (large frames)
	Fill    float64 // large frames: the symbol's extent with its quiet zone over the frame's shorter side
	Sharpen float64 // large frames: unsharp-mask amount
}

// zintMatrix returns the module matrix zint makes of text as f (rows of modules, true =
// dark; one row for linear codes), or an error when zint is missing or refuses.
func zintMatrix(f Format, text string) ([][]bool, error) {
	args := map[Format][]string{
		Code128:    {"-b", "CODE128"},
		ITF:        {"-b", "C25INTER"},
		QRCode:     {"-b", "QRCODE", "--secure=2"},
		DataMatrix: {"-b", "DATAMATRIX", "--square"},
	}[f]
	out, err := exec.Command("zint", append(args, "--dump", "-d", text)...).Output()
	if err != nil {
		return nil, fmt.Errorf("zint %v: %w", args, err)
	}
	var rows [][]bool
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var row []bool
		for _, c := range strings.ReplaceAll(strings.TrimSpace(line), " ", "") {
			var v int
			if _, err := fmt.Sscanf(string(c), "%X", &v); err != nil {
				return nil, fmt.Errorf("zint dump %q: %w", line, err)
			}
			for b := 3; b >= 0; b-- {
				row = append(row, v>>b&1 == 1)
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("zint: empty dump")
	}
	if f&OneD != 0 {
		// Linear codes end with a bar: the dump's trailing zeros are nibble padding.
		r := rows[0]
		for len(r) > 0 && !r[len(r)-1] {
			r = r[:len(r)-1]
		}
		rows = rows[:1]
		rows[0] = r
	} else {
		n := len(rows) // square symbols: as many columns as rows
		for i := range rows {
			if len(rows[i]) < n {
				return nil, fmt.Errorf("zint: row %d shorter than %d", i, n)
			}
			rows[i] = rows[i][:n]
		}
	}
	return rows, nil
}

var zintCache sync.Map // Format+text → [][]bool

func zintSymbol(f Format, text string) ([][]bool, error) {
	k := f.String() + ":" + text
	if v, ok := zintCache.Load(k); ok {
		return v.([][]bool), nil
	}
	m, err := zintMatrix(f, text)
	if err == nil {
		zintCache.Store(k, m)
	}
	return m, err
}

// needZint skips a test when zint is missing (CI installs it).
func needZint(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("zint"); err != nil {
		t.Skip("zint not installed (Debian package zint): the camera frame set needs it as its independent encoder")
	}
}

// symbolLayout is a symbol in ticket coordinates (modules): dark(u, v) on the code area
// [0, w)×[0, h), quiet zone q modules around it.
type symbolLayout struct {
	m      [][]bool
	w, h   float64
	q      float64
	linear bool
}

func (s *symbolLayout) dark(u, v float64) bool {
	if u < 0 || v < 0 || u >= s.w || v >= s.h {
		return false
	}
	if s.linear {
		return s.m[0][int(u)]
	}
	return s.m[int(v)][int(u)]
}

// hmat is a 3×3 homography, row major.
type hmat [9]float64

func (h *hmat) apply(x, y float64) (float64, float64) {
	w := h[6]*x + h[7]*y + h[8]
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w
}

func (h *hmat) inverse() hmat {
	a := h
	det := a[0]*(a[4]*a[8]-a[5]*a[7]) - a[1]*(a[3]*a[8]-a[5]*a[6]) + a[2]*(a[3]*a[7]-a[4]*a[6])
	return hmat{
		(a[4]*a[8] - a[5]*a[7]) / det, (a[2]*a[7] - a[1]*a[8]) / det, (a[1]*a[5] - a[2]*a[4]) / det,
		(a[5]*a[6] - a[3]*a[8]) / det, (a[0]*a[8] - a[2]*a[6]) / det, (a[2]*a[3] - a[0]*a[5]) / det,
		(a[3]*a[7] - a[4]*a[6]) / det, (a[1]*a[6] - a[0]*a[7]) / det, (a[0]*a[4] - a[1]*a[3]) / det,
	}
}

// cameraAt builds the homography from flat ticket coordinates (modules, origin at the code's
// centre) to the pixels of a w×h frame: the plane is rotated in itself by rot, tilted by tilt
// about an in-plane axis at direction psi, and seen by a pinhole of focal f pixels (centred
// on the frame) at the distance where a module spans mod pixels at the centre.
func cameraAt(mod, rot, tilt, psi float64, w, h int, f float64) hmat {
	// In-plane axes after rotation.
	cr, sr := math.Cos(rot), math.Sin(rot)
	a := [3]float64{cr, sr, 0}
	b := [3]float64{-sr, cr, 0}
	// Tilt about axis k = (cos psi, sin psi, 0): Rodrigues.
	k := [3]float64{math.Cos(psi), math.Sin(psi), 0}
	ct, st := math.Cos(tilt), math.Sin(tilt)
	rotv := func(v [3]float64) [3]float64 {
		kv := k[0]*v[0] + k[1]*v[1] + k[2]*v[2]
		cross := [3]float64{k[1]*v[2] - k[2]*v[1], k[2]*v[0] - k[0]*v[2], k[0]*v[1] - k[1]*v[0]}
		var r [3]float64
		for i := range r {
			r[i] = v[i]*ct + cross[i]*st + k[i]*kv*(1-ct)
		}
		return r
	}
	a, b = rotv(a), rotv(b)
	z := f // depth of the centre: one plane unit ≈ one pixel there
	cx, cy := float64(w)/2, float64(h)/2
	return hmat{
		mod * (f*a[0] + cx*a[2]), mod * (f*b[0] + cx*b[2]), cx * z,
		mod * (f*a[1] + cy*a[2]), mod * (f*b[1] + cy*b[2]), cy * z,
		mod * a[2], mod * b[2], z,
	}
}

const camW, camH = 640, 480

// camFocal is the focal length in pixels of a frame w pixels wide: 700 for the 640×480
// frames (a 49° field); a phone's wider lens (about 64°) for the large ones.
func camFocal(w int) float64 {
	if w == camW {
		return 700
	}
	return 0.8 * float64(w)
}

// camFrame is one generated camera frame.
type camFrame struct {
	img  image.Image // *image.RGBA, or *image.YCbCr for JPEG frames
	jpeg []byte      // the JPEG file, when JPEG
	p    camParams
}

// makeCamFrame draws a camera frame of class cls holding text as f (text "": clutter only).
//
// rot, when given, fixes the in-plane rotation to rot[0] ± 3° (the right-angle tests).
func makeCamFrame(rng *rand.Rand, f Format, text string, cls camClass, rot ...float64) (camFrame, error) {
	p := camParams{W: camW, H: camH}
	p.Class = cls.String()
	mixed := cls == camMixed
	// Desk: low-frequency coloured blotches.
	fr := newRGBF(camW, camH)
	deskBlotches(fr, rng)
	deskClutter(fr, rng)

	if text != "" {
		m, err := zintSymbol(f, text)
		if err != nil {
			return camFrame{}, err
		}
		if err := drawCamTicket(fr, rng, f, m, cls, &p, rot...); err != nil {
			return camFrame{}, err
		}
	}
	// Optics: motion blur, then defocus.
	if p.Motion > 0.5 {
		motionBlur(fr, p.Motion, rng.Float64()*math.Pi)
	}
	p.Defocus = 0
	if rng.IntN(2) == 0 {
		p.Defocus = 1
		boxBlur3(fr)
	}
	// Light: vignetting, then sensor shot noise.
	vig := 0.15 + 0.35*rng.Float64()
	gain := 0.15 + 0.3*rng.Float64() // shot noise: σ = gain·√v (2–6 grey levels on paper)
	out := expose(fr, rng, vig, gain)
	cf := camFrame{img: out, p: p}
	if cls == camJPEG || (mixed && rng.IntN(2) == 0) {
		q := 30 + rng.IntN(41)
		if mixed {
			q = 50 + rng.IntN(21)
		}
		cf.p.JPEG = q
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: q}); err != nil {
			return camFrame{}, err
		}
		img, err := jpeg.Decode(bytes.NewReader(buf.Bytes()))
		if err != nil {
			return camFrame{}, err
		}
		cf.img, cf.jpeg = img, buf.Bytes()
	}
	return cf, nil
}

// expose turns the light falling on the sensor into an RGBA frame: vignetting (light falling
// to 1 − vig at the corners' distance of the width's half), then shot noise of σ = gain·√level.
func expose(fr *rgbf, rng *rand.Rand, vig, gain float64) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, fr.w, fr.h))
	hw, hh := float64(fr.w)/2, float64(fr.h)/2
	for y := range fr.h {
		for x := range fr.w {
			dx, dy := (float64(x)-hw)/hw, (float64(y)-hh)/hw
			l := 1 - vig*(dx*dx+dy*dy)
			i := y*fr.w + x
			for c := range 3 {
				v := fr.pix[3*i+c] * l
				v += gain * math.Sqrt(max(v, 1)) * rng.NormFloat64()
				out.Pix[4*i+c] = byte(max(0, min(255, v+0.5)))
			}
			out.Pix[4*i+3] = 255
		}
	}
	return out
}

// rgbf is a float RGB frame; scale is its width over 640 (the desk's things grow with it).
type rgbf struct {
	w, h  int
	pix   []float64
	scale float64
}

func newRGBF(w, h int) *rgbf {
	return &rgbf{w: w, h: h, pix: make([]float64, 3*w*h), scale: float64(w) / camW}
}

func (f *rgbf) blend(x, y int, c [3]float64, a float64) {
	if x < 0 || y < 0 || x >= f.w || y >= f.h || a <= 0 {
		return
	}
	i := 3 * (y*f.w + x)
	for k := range 3 {
		f.pix[i+k] += a * (c[k] - f.pix[i+k])
	}
}

// deskBlotches paints the desk: a base colour and six soft blotches. On frames larger than
// 640×480 the blotches (60–260 px across, scaled) are evaluated every fourth pixel.
func deskBlotches(fr *rgbf, rng *rand.Rand) {
	base := [3]float64{60 + 120*rng.Float64(), 60 + 120*rng.Float64(), 60 + 120*rng.Float64()}
	type blob struct{ x, y, r, a, b, c float64 }
	var bl []blob
	for range 6 {
		bl = append(bl, blob{rng.Float64() * float64(fr.w), rng.Float64() * float64(fr.h), (60 + 200*rng.Float64()) * fr.scale,
			(rng.Float64() - 0.5) * 60, (rng.Float64() - 0.5) * 60, (rng.Float64() - 0.5) * 60})
	}
	step := 1
	if fr.scale > 1 {
		step = 4
	}
	for y := 0; y < fr.h; y += step {
		for x := 0; x < fr.w; x += step {
			c := base
			for _, b := range bl {
				dx, dy := float64(x)-b.x, float64(y)-b.y
				w := math.Exp(-(dx*dx + dy*dy) / (b.r * b.r))
				c[0] += w * b.a
				c[1] += w * b.b
				c[2] += w * b.c
			}
			for yy := y; yy < min(y+step, fr.h); yy++ {
				for xx := x; xx < min(x+step, fr.w); xx++ {
					i := 3 * (yy*fr.w + xx)
					fr.pix[i], fr.pix[i+1], fr.pix[i+2] = c[0], c[1], c[2]
				}
			}
		}
	}
}

// deskClutter draws things found on a counter: receipt text (lines of short strokes), coins,
// pens, a calendar grid, a striped mat.
func deskClutter(fr *rgbf, rng *rand.Rand) {
	col := func() [3]float64 {
		return [3]float64{255 * rng.Float64(), 255 * rng.Float64(), 255 * rng.Float64()}
	}
	for range 5 + rng.IntN(8) {
		x0, y0 := rng.Float64()*float64(fr.w), rng.Float64()*float64(fr.h)
		a := rng.Float64() * 2 * math.Pi
		ca, sa := math.Cos(a), math.Sin(a)
		put := func(u, v, w, h float64, c [3]float64) { // rotated rectangle in local coords
			fillQuad(fr, x0, y0, ca, sa, u, v, w, h, c)
		}
		switch rng.IntN(5) {
		case 0: // receipt text
			c := [3]float64{30, 30, 40}
			s := (1 + 2*rng.Float64()) * fr.scale
			for l := range 2 + rng.IntN(6) {
				u := 0.0
				for u < 40*s+rng.Float64()*60*s {
					wl := (1 + float64(rng.IntN(3))) * s
					put(u, float64(l)*4*s, wl, 2*s*(0.5+rng.Float64()), c)
					u += wl + s*(1+float64(rng.IntN(3)))
				}
			}
		case 1: // coin
			r := (8 + 20*rng.Float64()) * fr.scale
			c := col()
			for y := int(y0 - r); y <= int(y0+r); y++ {
				for x := int(x0 - r); x <= int(x0+r); x++ {
					d := math.Hypot(float64(x)-x0, float64(y)-y0)
					if d <= r {
						k := 1.0
						if d > 0.8*r {
							k = 0.7
						}
						fr.blend(x, y, [3]float64{c[0] * k, c[1] * k, c[2] * k}, 1)
					}
				}
			}
		case 2: // pen
			put(0, 0, (80+150*rng.Float64())*fr.scale, (4+8*rng.Float64())*fr.scale, col())
		case 3: // calendar grid
			c := col()
			n, s := 3+rng.IntN(5), (6+10*rng.Float64())*fr.scale
			for i := range n {
				for j := range n {
					if rng.IntN(3) > 0 {
						put(float64(i)*s, float64(j)*s, s*0.8, s*0.8, c)
					}
				}
			}
		default: // striped mat
			c := col()
			s := (2 + 6*rng.Float64()) * fr.scale
			for i := range 4 + rng.IntN(10) {
				put(float64(i)*2*s, 0, s, (30+60*rng.Float64())*fr.scale, c)
			}
		}
	}
}

// fillQuad fills the rectangle [u, u+w]×[v, v+h] of the frame rotated by (ca, sa) about (x0, y0).
func fillQuad(fr *rgbf, x0, y0, ca, sa, u, v, w, h float64, c [3]float64) {
	cx, cy := u+w/2, v+h/2
	px, py := x0+cx*ca-cy*sa, y0+cx*sa+cy*ca
	r := math.Hypot(w, h)/2 + 1
	for y := int(py - r); y <= int(py+r); y++ {
		for x := int(px - r); x <= int(px+r); x++ {
			dx, dy := float64(x)-px, float64(y)-py
			lu, lv := dx*ca+dy*sa, -dx*sa+dy*ca
			if math.Abs(lu) <= w/2 && math.Abs(lv) <= h/2 {
				fr.blend(x, y, c, 1)
			}
		}
	}
}

// drawCamTicket places the ticket with the symbol m and draws it with the class's
// distortions.
func drawCamTicket(fr *rgbf, rng *rand.Rand, f Format, m [][]bool, cls camClass, p *camParams, rot ...float64) error {
	mixed := cls == camMixed
	linear := f&OneD != 0
	s := symbolLayout{m: m, linear: linear, w: float64(len(m[0])), h: float64(len(m))}
	if linear {
		s.q = 10
		s.h = math.Round(0.15*s.w + 10*rng.Float64()) // bars 15–25 % of the length, as printed on packs
	} else {
		s.q = 4
	}
	psi, curveAlongU, floor := camOptics(rng, cls, &s, p, rot)
	// Ticket paper beyond the quiet zone.
	mL, mR := 2+6*rng.Float64(), 2+6*rng.Float64()
	mT, mB := 2+6*rng.Float64(), 4+8*rng.Float64()
	uMin, uMax := -s.q-mL, s.w+s.q+mR
	vMin, vMax := -s.q-mT, s.h+s.q+mB
	p.Cut = cls == camEdge || (mixed && rng.IntN(3) == 0)

	H, err := placeTicket(rng, f, &s, p, psi, floor, curveAlongU, rot)
	if err != nil {
		return err
	}
	var look ticketLook
	if cls == camFinger || (mixed && rng.IntN(3) == 0) {
		sp := pickSpot(rng, f, &s, 0.05)
		look.finger = &sp
		p.Finger = true
	}
	if cls == camGlare || (mixed && rng.IntN(3) == 0) {
		p.Glare = 1 + rng.IntN(2)
		for range p.Glare {
			sp := pickSpot(rng, f, &s, 0.04)
			if linear {
				sp.ru *= 0.8
			}
			look.glares = append(look.glares, sp)
		}
	}
	look.skin = [3]float64{190 + 40*rng.Float64(), 140 + 30*rng.Float64(), 110 + 30*rng.Float64()}
	look.tint = [3]float64{1 - 0.08*rng.Float64(), 1 - 0.08*rng.Float64(), 1 - 0.08*rng.Float64()}
	// Black to dark blue ink, at about the same luminance.
	blue := rng.Float64()
	look.ink = [3]float64{max(0, p.Ink-20*blue), max(0, p.Ink-10*blue), p.Ink + 40*blue}

	// Shadow: a half-plane of the frame across the symbol's centre, soft over 1–3 px.
	if cls == camShadow || (mixed && rng.IntN(2) == 0) {
		p.Shadow = true
		a := rng.Float64() * 2 * math.Pi
		cx, cy := H.apply(0, 0)
		look.shadow.nx, look.shadow.ny = math.Cos(a), math.Sin(a)
		look.shadow.d = cx*look.shadow.nx + cy*look.shadow.ny + (rng.Float64()-0.5)*40
		look.shadow.k = 0.4 + 0.25*rng.Float64()
		look.shadow.soft = 1 + 2*rng.Float64()
	}

	look.uMin, look.uMax, look.vMin, look.vMax = uMin, uMax, vMin, vMax
	rasterTicket(fr, &s, p, H, curveAlongU, &look)
	return nil
}

// camOptics draws the ticket's module size, rotation, tilt, curvature, ink and motion for its
// class; it returns the tilt axis, the curvature's direction and the smallest module allowed.
func camOptics(rng *rand.Rand, cls camClass, s *symbolLayout, p *camParams, rot []float64) (psi float64, curveAlongU bool, floor float64) {
	mixed := cls == camMixed
	linear := s.linear
	// Module size at the centre.
	switch {
	case cls == camLarge:
		p.Module = largeModule(rng, s, p)
	case cls == camSmall && linear:
		p.Module = 1.5 + 0.1*rng.Float64()
	case cls == camSmall:
		p.Module = 2 + 0.2*rng.Float64()
	case linear:
		p.Module = 1.8 + 1.6*rng.Float64()
	default:
		p.Module = 2.6 + 2.6*rng.Float64()
	}
	p.Rot = 360 * rng.Float64()
	if len(rot) > 0 {
		p.Rot = rot[0] + 6*(rng.Float64()-0.5)
	}
	p.Tilt = 15 * rng.Float64()
	if cls == camTilt {
		p.Tilt = 25 + 15*rng.Float64()
	} else if mixed {
		p.Tilt = 20 * rng.Float64()
	}
	psi = rng.Float64() * 2 * math.Pi
	// Foreshortening shrinks modules across the tilt axis by up to cos(tilt) (and more on the
	// far side): keep the narrowest projected module ≥ 1.5 px (bars) / 2 px (matrix), the
	// smallest a camera frame resolves.
	floor = 1.5
	if !linear {
		floor = 2
	}
	p.Module = max(p.Module, floor/math.Cos(p.Tilt*math.Pi/180)*1.08)
	if cls == camCurve || (mixed && rng.IntN(2) == 0) {
		// Radius: the code spans at most ±60° of the cylinder.
		span := s.w/2 + s.q
		p.Curve = span / (math.Pi / 3 * (0.6 + 0.4*rng.Float64()))
		if mixed {
			p.Curve *= 2 // half the wrap angle
		}
	}
	curveAlongU = linear || rng.IntN(2) == 0
	if p.Curve > 0 {
		// The sides of the code are foreshortened by cos of the wrap angle there.
		half := s.w / 2
		if !curveAlongU {
			half = s.h / 2
		}
		p.Module = max(p.Module, floor/math.Cos(half/p.Curve)*1.05)
	}
	p.Paper = 175 + 70*rng.Float64()
	p.Ink = p.Paper - (130 + 50*rng.Float64())
	if cls == camLowContrast {
		p.Ink = p.Paper - (25 + 25*rng.Float64())
	} else if mixed {
		p.Ink = p.Paper - (90 + 60*rng.Float64())
	}
	if cls == camMotion || mixed {
		// Across the bars the streak stays under one module.
		p.Motion = (0.7 + 0.3*rng.Float64()) * p.Module
		if mixed {
			p.Motion = (0.25 + 0.25*rng.Float64()) * p.Module
		}
	}
	return psi, curveAlongU, floor
}

// placeTicket finds where the ticket goes: the homography from flat ticket coordinates
// (modules, symbol centre at the origin) to frame pixels, with the quiet zone in the frame
// or, for a cut frame, the frame edge inside it.
func placeTicket(rng *rand.Rand, f Format, s *symbolLayout, p *camParams, psi, floor float64, curveAlongU bool, rot []float64) (hmat, error) {
	linear := s.linear
	fw, fh := float64(p.W), float64(p.H)
	var H hmat
	for try := 0; ; try++ {
		if try > 200 {
			return hmat{}, fmt.Errorf("cannot place a %v ticket (module %.2f)", f, p.Module)
		}
		H = cameraAt(p.Module, p.Rot*math.Pi/180, p.Tilt*math.Pi/180, psi, p.W, p.H, camFocal(p.W))
		// Symbol centre at the origin of the plane.
		shift := func(u, v float64) (float64, float64) { return u - s.w/2, v - s.h/2 }
		proj := func(u, v float64) (float64, float64) {
			x, y := shift(u, v)
			if p.Curve > 0 {
				if curveAlongU {
					x = p.Curve * math.Sin(x/p.Curve)
				} else {
					y = p.Curve * math.Sin(y/p.Curve)
				}
			}
			return H.apply(x, y)
		}
		// Bounding box of the symbol with its quiet zone, and of the symbol alone.
		bbox := func(u0, v0, u1, v1 float64) (x0, y0, x1, y1 float64) {
			x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
			for i := 0; i <= 8; i++ {
				for j := 0; j <= 8; j++ {
					x, y := proj(u0+(u1-u0)*float64(i)/8, v0+(v1-v0)*float64(j)/8)
					x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
				}
			}
			return
		}
		qx0, qy0, qx1, qy1 := bbox(-s.q, -s.q, s.w+s.q, s.h+s.q)
		if qx1-qx0 > fw-4 || qy1-qy0 > fh-4 {
			p.Module *= 0.95
			if p.Module < floor {
				p.Module, p.Tilt, p.Curve = floor*1.05, p.Tilt*0.8, p.Curve*1.3
			}
			continue
		}
		var tx, ty float64
		if !p.Cut {
			tx = 2 - qx0 + rng.Float64()*(fw-4-(qx1-qx0))
			ty = 2 - qy0 + rng.Float64()*(fh-4-(qy1-qy0))
		} else {
			// Choose one side of the symbol (the ends of a linear code) and a cut 0–80 % of
			// the way into its quiet zone; move the frame edge the side points to onto it.
			var cu, cv, du, dv float64
			cutQ := s.q * (0.2 + 0.8*rng.Float64())
			side := rng.IntN(2)
			if !linear {
				side = rng.IntN(4)
			}
			switch side {
			case 0:
				cu, cv, du, dv = -cutQ, s.h/2, -1, 0
			case 1:
				cu, cv, du, dv = s.w+cutQ, s.h/2, 1, 0
			case 2:
				cu, cv, du, dv = s.w/2, -cutQ, 0, -1
			default:
				cu, cv, du, dv = s.w/2, s.h+cutQ, 0, 1
			}
			x, y := proj(cu, cv)
			x2, y2 := proj(cu+du, cv+dv)
			ox, oy := x2-x, y2-y
			sx0, sy0, sx1, sy1 := bbox(0, 0, s.w, s.h)
			if math.Abs(ox) > math.Abs(oy) {
				if ox < 0 {
					tx = -x
				} else {
					tx = fw - 1 - x
				}
				ty = 2 - sy0 + rng.Float64()*math.Max(0, fh-4-(sy1-sy0))
			} else {
				if oy < 0 {
					ty = -y
				} else {
					ty = fh - 1 - y
				}
				tx = 2 - sx0 + rng.Float64()*math.Max(0, fw-4-(sx1-sx0))
			}
			// The symbol itself (all its modules) must stay in the frame.
			if sx0+tx < 1 || sy0+ty < 1 || sx1+tx > fw-2 || sy1+ty > fh-2 {
				if len(rot) == 0 {
					p.Rot = 360 * rng.Float64()
				}
				continue
			}
		}
		H = hmat{H[0] + tx*H[6], H[1] + tx*H[7], H[2] + tx*H[8],
			H[3] + ty*H[6], H[4] + ty*H[7], H[5] + ty*H[8], H[6], H[7], H[8]}
		break
	}
	return H, nil
}

// spot is a finger or glare blob in ticket coordinates (modules).
type spot struct{ u, v, ru, rv float64 }

// Finger and glare spots, in ticket coordinates (modules), where the symbology survives
// them: on a linear code from the top or bottom edge over at most 40 % of the bar height;
// on a matrix code inside the data area, clear of the finder patterns, over ≤ 6 % of it.
func pickSpot(rng *rand.Rand, f Format, s *symbolLayout, frac float64) spot {
	linear := s.linear
	if linear {
		ru := s.w * (0.05 + 0.15*rng.Float64())
		rv := s.h * 0.4
		v := -0.5 * rv // the blob's centre above the top: its lower half covers ≤ 40 %
		if rng.IntN(2) == 0 {
			v = s.h + 0.5*rv
		}
		return spot{s.w * (0.15 + 0.7*rng.Float64()), v, ru, rv * 1.5}
	}
	r := math.Sqrt(frac*s.w*s.h/math.Pi) * (0.7 + 0.3*rng.Float64())
	// Clear of the three finder patterns (QR: 8×8 at three corners) or the L finder and
	// clock track (DataMatrix: the border): the interior, bottom-right quarter biased.
	lo, hi := 8+r, s.w-2-r
	if f == DataMatrix {
		lo, hi = 2+r, s.w-2-r
	}
	if hi < lo {
		lo, hi = s.w/2, s.w/2
	}
	return spot{lo + (hi-lo)*rng.Float64(), lo + (hi-lo)*rng.Float64(), r, r}
}

// ticketLook is how the placed ticket looks: ink, paper tint, finger, glare and shadow.
type ticketLook struct {
	finger                 *spot
	glares                 []spot
	skin, tint, ink        [3]float64
	shadow                 struct{ nx, ny, d, k, soft float64 }
	uMin, uMax, vMin, vMax float64
}

// rasterTicket draws the ticket into fr through H with 2×2 supersamples, then its shadow.
func rasterTicket(fr *rgbf, s *symbolLayout, p *camParams, H hmat, curveAlongU bool, look *ticketLook) {
	linear := s.linear
	Hi := H.inverse()
	uMin, uMax, vMin, vMax := look.uMin, look.uMax, look.vMin, look.vMax
	// Rasterise: 2×2 supersamples per pixel, each mapped back onto the plane.
	x0, y0, x1, y1 := fr.w, fr.h, 0, 0
	for i := 0; i <= 16; i++ {
		for j := 0; j <= 16; j++ {
			u, v := uMin+(uMax-uMin)*float64(i)/16-s.w/2, vMin+(vMax-vMin)*float64(j)/16-s.h/2
			if curveAlongU {
				u = curveFwd(u, p.Curve, true)
			} else {
				v = curveFwd(v, p.Curve, true)
			}
			x, y := H.apply(u, v)
			x0, y0, x1, y1 = min(x0, int(x)-3), min(y0, int(y)-3), max(x1, int(x)+4), max(y1, int(y)+4)
		}
	}
	x0, y0, x1, y1 = max(0, x0), max(0, y0), min(fr.w, x1), min(fr.h, y1)
	// Printed text line under the code: under the bars of a linear code, beyond the quiet
	// zone of a matrix code (which needs it all round).
	textV := s.h + s.q*0.3
	if !linear {
		textV = s.h + s.q + 0.5
	}
	offs := [4][2]float64{{0.3, 0.1}, {0.8, 0.35}, {0.1, 0.65}, {0.6, 0.9}} // rotated grid
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			var acc [3]float64
			hits := 0
			for _, o := range offs {
				px, py := Hi.apply(float64(x)+o[0], float64(y)+o[1])
				u, v, ok := curveBack(px, py, p.Curve, curveAlongU)
				if !ok {
					continue
				}
				u, v = u+s.w/2, v+s.h/2
				if u < uMin || u >= uMax || v < vMin || v >= vMax {
					continue
				}
				c := [3]float64{p.Paper * look.tint[0], p.Paper * look.tint[1], p.Paper * look.tint[2]}
				if s.dark(u, v) {
					c = look.ink
				}
				// Printed text line under the code.
				if v > textV && v < textV+3 && u > 0 && u < s.w && int(u/1.5)%4 != 3 && (int(u*7)^int(v*3))%3 == 0 {
					c = [3]float64{p.Ink + 20, p.Ink + 20, p.Ink + 20}
				}
				for _, g := range look.glares {
					du, dv := (u-g.u)/g.ru, (v-g.v)/g.rv
					w := 1.3 * math.Exp(-(du*du + dv*dv))
					for k := range c {
						c[k] += w * (300 - c[k])
					}
				}
				if look.finger != nil {
					du, dv := (u-look.finger.u)/look.finger.ru, (v-look.finger.v)/look.finger.rv
					if d := du*du + dv*dv; d < 1 {
						sh := 1 - 0.3*d // rounder in the middle
						c = [3]float64{look.skin[0] * sh, look.skin[1] * sh, look.skin[2] * sh}
					}
				}
				for k := range acc {
					acc[k] += c[k]
				}
				hits++
			}
			if hits == 0 {
				continue
			}
			i := 3 * (y*fr.w + x)
			for k := range 3 {
				fr.pix[i+k] = (acc[k] + float64(4-hits)*fr.pix[i+k]) / 4
			}
		}
	}
	if p.Shadow {
		for y := range fr.h {
			for x := range fr.w {
				t := (float64(x)*look.shadow.nx + float64(y)*look.shadow.ny - look.shadow.d) / look.shadow.soft
				l := 1 - (1-look.shadow.k)*logistic(t)
				i := 3 * (y*fr.w + x)
				for k := range 3 {
					fr.pix[i+k] *= l
				}
			}
		}
	}
}

func curveFwd(x, r float64, on bool) float64 {
	if r <= 0 || !on {
		return x
	}
	return r * math.Sin(x/r)
}

// curveBack maps a point of the projected plane back to flat ticket coordinates.
func curveBack(x, y, r float64, alongU bool) (float64, float64, bool) {
	if r <= 0 {
		return x, y, true
	}
	if alongU {
		if math.Abs(x) >= r {
			return 0, 0, false
		}
		return r * math.Asin(x/r), y, true
	}
	if math.Abs(y) >= r {
		return 0, 0, false
	}
	return x, r * math.Asin(y/r), true
}

// motionBlur smears fr along direction a over length px (a line kernel, sub-pixel steps).
func motionBlur(fr *rgbf, length, a float64) {
	n := int(math.Ceil(length*2)) + 1
	dx, dy := math.Cos(a)*length/float64(n-1), math.Sin(a)*length/float64(n-1)
	src := make([]float64, len(fr.pix))
	copy(src, fr.pix)
	w, h := fr.w, fr.h
	for y := range h {
		for x := range w {
			var acc [3]float64
			for k := range n {
				t := float64(k) - float64(n-1)/2
				sx := min(w-1, max(0, int(math.Round(float64(x)+t*dx))))
				sy := min(h-1, max(0, int(math.Round(float64(y)+t*dy))))
				j := 3 * (sy*w + sx)
				acc[0] += src[j]
				acc[1] += src[j+1]
				acc[2] += src[j+2]
			}
			i := 3 * (y*w + x)
			for c := range 3 {
				fr.pix[i+c] = acc[c] / float64(n)
			}
		}
	}
}

// blurTmp keeps boxBlur3's scratch rows between calls: a large frame's are 160 MB, whose
// first touch (page faults, zeroing) cost more than the blur itself.
var blurTmp sync.Pool

// blurScratch is a scratch slice of n floats, every one overwritten by its user.
func blurScratch(n int) []float64 {
	if p, ok := blurTmp.Get().(*[]float64); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]float64, n)
}

// boxBlur3 is a 3×3 binomial defocus (1 2 1)².
func boxBlur3(fr *rgbf) {
	w, h := fr.w, fr.h
	tmp := blurScratch(len(fr.pix))
	defer blurTmp.Put(&tmp)
	n := 3 * w // one row's floats
	for y := range h {
		src, dst := fr.pix[y*n:(y+1)*n], tmp[y*n:(y+1)*n]
		if w == 1 {
			for c := range 3 {
				dst[c] = (src[c] + 2*src[c] + src[c]) / 4
			}
			continue
		}
		for c := range 3 { // the first and last pixels repeat themselves beyond the edge
			dst[c] = (src[c] + 2*src[c] + src[3+c]) / 4
			dst[n-3+c] = (src[n-6+c] + 2*src[n-3+c] + src[n-3+c]) / 4
		}
		l, m, r := src[:n-6], src[3:n-3], src[6:]
		d := dst[3 : n-3]
		for i := range d {
			d[i] = (l[i] + 2*m[i] + r[i]) / 4
		}
	}
	for y := range h {
		up, mid, down := tmp[max(0, y-1)*n:][:n], tmp[y*n:][:n], tmp[min(h-1, y+1)*n:][:n]
		dst := fr.pix[y*n:][:n]
		for i := range dst {
			dst[i] = (up[i] + 2*mid[i] + down[i]) / 4
		}
	}
}

// camSeed seeds the camera frames; frame i of format f uses PCG(camSeed, f<<32|i).
const camSeed = 77310013

// camText is the text of camera frame i: the terminal's shapes (as codeText), from a stream
// of its own.
func camFrameAt(f Format, i int) (camFrame, string, error) {
	rng := rand.New(rand.NewPCG(camSeed, uint64(f)<<32|uint64(i)))
	text := codeText(rng, f)
	cls := camClass(i % int(numCamClasses))
	cf, err := makeCamFrame(rng, f, text, cls)
	return cf, text, err
}

// camGray returns the luminance of a camera frame as zbarimg would see it (for PGM files).
func camGray(img image.Image) *image.Gray {
	b := img.Bounds()
	g := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g.SetGray(x, y, color.GrayModel.Convert(img.At(x, y)).(color.Gray))
		}
	}
	return g
}
