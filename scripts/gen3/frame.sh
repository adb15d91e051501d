#!/usr/bin/env bash
# The third frame generator (issue 34): codes drawn by zint and distorted by ImageMagick,
# sharing no code with drivers/barcode or the first two generators (its Go tests only call
# this script). 640×480 grey camera-like frames, many per ImageMagick process (a process
# start costs more than a frame on a loaded machine).
#
#   frame.sh DIR SYMBOLOGY CLASS SEED [COUNT]
#       COUNT frames (default 1) of CLASS, seeds SEED…SEED+COUNT−1: DIR/CLASS-SEED.png (or
#       .jpg) and DIR/CLASS-SEED.txt (the encoded text, then the parameters)
#   frame.sh DIR SYMBOLOGY sweep SEED MODULE ANGLES BLURS CONTRASTS
#       one text (DIR/sweep-MODULE-SEED.txt) drawn at every angle × blur × contrast (comma
#       lists): DIR/sweep-MODULE-SEED_aANGLE_bBLUR_cCONTRAST.png
#
#   SYMBOLOGY  code128 | itf | qr | dm
#   SEED       every random choice (text, placement, distortions, noise) follows from it and
#              the other arguments, the same on every machine (sha512, not a shell RNG)
#   CLASS      plain | perspective | defocus | motion | light | jpeg | noise | clutter | small |
#              mixed | none | nearmiss: any angle (0–360°), narrow module 1.5–3 px (small: 1.0–1.5),
#              Gaussian blur σ 0–0.4 px (defocus: 0.5–0.8), contrast 25–100 % ((paper − ink) /
#              paper), paper 70–90 %, sensor noise, plus the class's own distortion: a label
#              seen from aside (perspective), motion blur, uneven light and vignetting, JPEG at
#              quality 30–70, strong noise, a desk of clutter; mixed draws each of those with
#              probability ½; none is a desk of clutter without any code (its text is empty);
#              nearmiss draws mixed's distortions around a near miss or a look-alike whose
#              kind follows from the seed (scripts/gen3/nearmiss.sh: its kinds; the text
#              file's first line is what may be read, "-" for nothing)
#   sweep      only the grid: paper 70–90 %, sensor noise, the symbol at a random place
#   GEN3_CONTRAST, GEN3_NOISE, GEN3_MODULE=LO,HI (tuning draws only, in a cache of their own):
#              force the classes' contrast (%), noise (× a tenth of the base's σ) and module (px)
#   GEN3_PARAMS_ONLY=1  writes the text files alone (the frames they describe do not change):
#              parameters added since a cache was drawn (lightf=, the light's factor at the
#              label; jpegrms= and jpegmf=, JPEG's error at the symbol, for which its JPEG
#              frames are drawn again in a temporary directory) without drawing the cache again
#   jpegrms=   (text file) JPEG's error at the label: the RMS difference in grey levels between
#              the frame just before the JPEG step and the JPEG, over the symbol's modules (0
#              without JPEG); jpegmf= the same error through a module's footprint, as the RMS
#              of white noise that would put as much power at a module's matched filter
#   GEN3_STAGES=DIR  (tuning draws only) keeps each JPEG frame's stages in DIR: -clean.png
#              (before the sensor noise), -pre.png (before JPEG), -mask.png (the symbol's)
#
# Needs zint (Debian zint) and ImageMagick 6 or 7 (Debian imagemagick).
set -euo pipefail
# One thread: the Go driver runs a process per core.
export MAGICK_THREAD_LIMIT=1 OMP_NUM_THREADS=1

usage() {
	sed -n '2,40p' "$0" >&2
	exit 2
}
[ $# -ge 4 ] || usage
dir=$1 sym=$2 class=$3 seed0=$4

im=(convert)
if command -v magick >/dev/null 2>&1; then im=(magick); fi
# A stand-in for convert that is not ImageMagick (it prints no version) cannot distort.
"${im[@]}" -version 2>/dev/null | grep -q ImageMagick || {
	echo "gen3: ImageMagick not installed (Debian package imagemagick)" >&2
	exit 3
}
command -v zint >/dev/null || {
	echo "gen3: zint not installed (Debian package zint)" >&2
	exit 3
}
mkdir -p "$dir"
# shellcheck source=scripts/gen3/nearmiss.sh
. "$(dirname "$0")/nearmiss.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Random numbers without a process each: hex holds a frame's 32 16-bit numbers (newhex);
# u K is the K-th; lerp/pick/chance work in fixed point (fx: ×10000).
hex=""
newhex() { hex=$(printf 'gen3:%s' "$*" | sha512sum); }
u() { echo $((16#${hex:$(($1 * 4)):4})); }
fx() {
	local i=${1%%.*} f=${1#*.}
	[ "$f" = "$1" ] && f=""
	f=${f}0000
	echo $((10#${i:-0} * 10000 + 10#${f:0:4}))
}
unfx() { printf '%d.%04d' $(($1 / 10000)) $(($1 % 10000)); }
lerp() {
	local a b
	a=$(fx "$2") b=$(fx "$3")
	unfx $((a + $(u "$1") * (b - a) / 65536))
}
pick() { echo $(($(u "$1") * $2 / 65536)); }
chance() { [ $(($(u "$1") * 10000 / 65536)) -lt "$(fx "$2")" ]; }

# maketext KEY: the text for KEY: digits for the linear codes, Crockford base 32 for the
# matrix ones; no valid check character needed (the decoder knows nothing of our formats).
case $sym in
code128) tlen=12 alphabet=0123456789 lin=1 ;;
itf) tlen=14 alphabet=0123456789 lin=1 ;;
qr | dm) tlen=25 lin=0 alphabet=0123456789ABCDEFGHJKMNPQRSTVWXYZ ;;
*)
	echo "gen3: unknown symbology $sym" >&2
	exit 2
	;;
esac
maketext() {
	local th i v
	th=$(printf 'gen3-text:%s' "$*" | sha512sum)
	text=""
	for ((i = 0; i < tlen; i++)); do
		v=$((16#${th:$((i * 2)):2} % ${#alphabet}))
		text+=${alphabet:$v:1}
	done
}

# drawsym FILE: zint draws text at 8 px per module (scale 4), with its quiet zones;
# ImageMagick scales it to the module asked.
drawsym() {
	case $sym in
	code128) zint -b 20 --height=50 --notext --quietzones --scale=4 -d "$text" -o "$1" >/dev/null ;;
	itf) zint -b 3 --height=50 --notext --quietzones --scale=4 -d "$text" -o "$1" >/dev/null ;;
	qr) zint -b 58 --vers=2 --secure=2 --quietzones --scale=4 -d "$text" -o "$1" >/dev/null ;;
	dm) zint -b 71 --square --quietzones --scale=4 -d "$text" -o "$1" >/dev/null ;;
	esac
}
# A paper label of 3 modules beyond zint's quiet zones (DataMatrix: zint gives it one module).
border=24
[ "$sym" = dm ] && border=40
W=640 H=480

# place U1 U2 W0 H0 MODULE ANGLE: a random offset from the frame's centre (for -gravity
# center) that keeps the label, W0×H0 at 8 px per module turned by ANGLE, inside the frame
# where it fits.
place() {
	awk -v u1="$1" -v u2="$2" -v w="$3" -v h="$4" -v m="$5" -v a="$6" -v W=$W -v H=$H 'BEGIN {
		s = m / 8; r = a * 3.14159265358979 / 180; c = cos(r); n = sin(r)
		if (c < 0) c = -c
		if (n < 0) n = -n
		lw = s * (w * c + h * n); lh = s * (w * n + h * c)
		sx = (W - lw) / 2; sy = (H - lh) / 2
		if (sx < 0) sx = 0
		if (sy < 0) sy = 0
		printf "%+d%+d", (2 * u1 / 65536 - 1) * sx, (2 * u2 / 65536 - 1) * sy }'
}

# narrowest PTS W0 H0: the narrowest module a perspective (PTS: +distort Perspective's
# pairs) leaves on a W0×H0 label: the local scale across the bars (matrix codes: across
# either axis), smallest over the label inside its paper border, times the module. Only
# reported in the text file (the frame does not depend on it).
narrowest() {
	awk -v pts="$1" -v w="$2" -v h="$3" -v bd="$border" -v m="$module" -v lin="$lin" '
function map(u, v) { q = G * u + Hh * v + 1; X = (A * u + B * v + C) / q; Y = (D * u + E * v + F) / q }
BEGIN {
	gsub(/ +/, ",", pts); split(pts, p, ",")
	x0 = p[3]; y0 = p[4]; x1 = p[7]; y1 = p[8]; x2 = p[11]; y2 = p[12]; x3 = p[15]; y3 = p[16]
	sx = x0 - x1 + x2 - x3; sy = y0 - y1 + y2 - y3
	dx1 = x1 - x2; dx2 = x3 - x2; dy1 = y1 - y2; dy2 = y3 - y2
	den = dx1 * dy2 - dx2 * dy1
	G = (sx * dy2 - dx2 * sy) / den; Hh = (dx1 * sy - sx * dy1) / den
	A = x1 - x0 + G * x1; B = x3 - x0 + Hh * x3; C = x0
	D = y1 - y0 + G * y1; E = y3 - y0 + Hh * y3; F = y0
	best = 1e9; ep = 1e-4
	for (i = 0; i <= 16; i++) for (j = 0; j <= 16; j++) {
		u = (bd + i * (w - 2 * bd) / 16) / w; v = (bd + j * (h - 2 * bd) / 16) / h
		map(u, v); px = X; py = Y
		map(u + ep, v); ux = (X - px) / (ep * w); uy = (Y - py) / (ep * w)
		map(u, v + ep); vx = (X - px) / (ep * h); vy = (Y - py) / (ep * h)
		det = ux * vy - uy * vx
		if (det < 0) det = -det
		r = det / sqrt(vx * vx + vy * vy)
		if (!lin) { r2 = det / sqrt(ux * ux + uy * uy); if (r2 < r) r = r2 }
		if (r < best) best = r
	}
	printf "%.3f", m * best
}'
}

# finish ARGS…: appends to cmd the steps from a scene in the list to a written frame:
# paper and ink levels, blur, light, noise, grey 8-bit, output file. Uses paper, contrast,
# blur, light, noise, jpeg, seed, out.
finish() {
	local ink v
	ink=$(unfx $(($(fx "$paper") * (1000000 - $(fx "$contrast")) / 1000000)))
	v=(\( mpr:base +level "${ink}%,${paper}%")
	if [ "$(fx "$blur")" -gt 100 ]; then
		v+=(-gaussian-blur "0x$blur")
	fi
	if [ "$light" = 1 ]; then
		v+=(\( -size "${W}x${H}" "gradient:white-gray($(lerp 19 55 85)%)" -distort SRT "$(lerp 24 0 360)" \) -compose Multiply -composite
			\( -size "${W}x${H}" "radial-gradient:white-gray(70%)" \) -compose Multiply -composite -compose Over)
	fi
	# GEN3_STAGES=DIR (tuning draws only): the JPEG frame's stages for JPEG's error model
	# (limit_test.go): DIR/CLASS-SEED-clean.png, the frame before the sensor noise (written
	# as MIFF here: a PNG written at this point changes the frames' noise after it); -pre.png
	# and -mask.png (jpegerr) its frame before JPEG and its symbol's mask.
	if [ -n "${GEN3_STAGES:-}" ] && [ "$jpeg" = 1 ]; then
		v+=(-write "$GEN3_STAGES/$class-$seed-clean.miff")
	fi
	v+=(-seed "$(($(u 30) + 1))" -attenuate "$(unfx $(($(fx "$noise") / 10)))" +noise Gaussian -colorspace Gray -depth 8)
	# The frame just before JPEG (the pixels JPEG is given), for its error (jpegerr).
	[ "$jpeg" = 1 ] && v+=(-write "$pre" -quality "$quality")
	v+=(-write "$out" +delete \))
	cmd+=("${v[@]}")
}

# lightat GEOMETRY: the uneven light's factor (0–1) at the label's centre, placed by
# GEOMETRY (-gravity center offsets): the light drawn as finish draws it, sampled there. Only
# reported in the text file (lightf=), for the readable limit: the light scales the ink's
# depth under the paper, not the sensor noise added after it.
lightat() {
	local x y
	read -r x y < <(awk -v g="$1" -v W=$W -v H=$H 'BEGIN {
		n = split(g, p, /[+-]/); sx = substr(g, 1, 1) == "-" ? -1 : 1
		rest = substr(g, length(p[2]) + 2); sy = substr(rest, 1, 1) == "-" ? -1 : 1
		x = W / 2 + sx * p[2]; y = H / 2 + sy * p[3]
		if (x < 0) x = 0; if (x > W - 1) x = W - 1; if (y < 0) y = 0; if (y > H - 1) y = H - 1
		printf "%d %d\n", x, y }')
	"${im[@]}" \( -size "${W}x${H}" "gradient:white-gray($(lerp 19 55 85)%)" -distort SRT "$(lerp 24 0 360)" \) \
		\( -size "${W}x${H}" "radial-gradient:white-gray(70%)" \) -compose Multiply -composite \
		-format "%[fx:p{$x,$y}.intensity]" info:
}

# mfkernel M A S: a module's footprint as a convolution kernel (ImageMagick's WxH: list,
# summing to 1) and its squared norm (after a tab): the module of side M px turned by A°,
# centred on a pixel, through a Gaussian of σ² = S² + 0.15 (the blur and the generator's
# triangle filter, a cone of one pixel's radius: 0.15 px² an axis), the square's edges as
# erf (Abramowitz–Stegun 7.1.26).
mfkernel() {
	awk -v m="$1" -v a="$2" -v b="$3" '
function erf(x,  t, y, s) {
	s = x < 0 ? -1 : 1; x = x < 0 ? -x : x
	t = 1 / (1 + 0.3275911 * x)
	y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x)
	return s * y
}
function edge(u) { return 0.5 * (erf((u + m / 2) / (sg * sqrt(2))) - erf((u - m / 2) / (sg * sqrt(2)))) }
BEGIN {
	sg = sqrt(b * b + 0.15); r = a * 3.14159265358979 / 180; c = cos(r); s = sin(r)
	k = int(m / sqrt(2) + 3 * sg) + 1; n = 2 * k + 1; sum = 0
	for (j = -k; j <= k; j++) for (i = -k; i <= k; i++) {
		h[j, i] = edge(c * i + s * j) * edge(-s * i + c * j); sum += h[j, i]
	}
	out = n "x" n ":"; sep = ""; n2 = 0
	for (j = -k; j <= k; j++) for (i = -k; i <= k; i++) {
		v = h[j, i] / sum; n2 += v * v; out = out sep sprintf("%.6f", v); sep = ","
	}
	printf "%s\t%.6f\n", out, n2
}'
}

# jpegerr N…: JPEG's error at the label of each frame N: the RMS difference between the
# frame just before the JPEG step ($tmp/preN.png) and the JPEG written ($tmp/fN.jpg) over
# the symbol's area (jpegrms[N], grey levels): its modules without the quiet zone (linear
# codes: the bars' box without their 10-module quiet zones), the label's mask drawn as the
# label is (perspective, scale, angle, place), weighted by its coverage at the edges; and
# the same error through a module's footprint (mfkernel at the narrowest module, the blur
# and the angle), as the RMS of white noise that would put as much there (jpegmf[N]:
# JPEG's error at a module's matched filter; white noise would give jpegrms). One
# ImageMagick process for all of them.
jpegerr() {
	local n qz c=("${im[@]}") rms kern
	case $sym in
	qr) qz=32x32 ;;
	dm) qz=8x8 ;;
	*) qz=80x0 ;;
	esac
	for n in "$@"; do
		c+=(\( -size "${W}x${H}" xc:black \( "$tmp/sym$n.png" -colorspace Gray -fill white -colorize 100 -shave "$qz"
			-bordercolor black -border "${qz%x*}x${qz#*x}" -border "$border" -virtual-pixel black)
		[ -n "${persps[n]}" ] && c+=(+distort Perspective "${persps[n]}")
		c+=(-filter Triangle +distort SRT "$(unfx $(($(fx "${modules[n]}") / 8))) ${angs[n]}" \)
			-gravity center -geometry "${geoms[n]}" -composite +gravity -write mpr:mask)
		if [ -n "${GEN3_STAGES:-}" ]; then
			stage=$GEN3_STAGES/$(basename "${names[n]%.*}")
			cp "$tmp/pre$n.png" "$stage-pre.png"
			c+=(-write "$stage-mask.png" \( "$stage-clean.miff" -depth 16 -write "$stage-clean.png" +delete \))
		fi
		# Means over the frame, printed in order: e²·mask, mask, (g⋆e)²·mask, (g⋆e + ½)·mask
		# (g⋆e signed around ½ before its square and mean), then g's squared norm.
		IFS=$'\t' read -r kern mfn2[n] < <(mfkernel "${narrows[n]}" "${angs[n]}" "${blurs[n]}")
		# Every composite below is of two whole frames: -geometry +0+0 before each (a setting
		# that would otherwise be the label's place).
		c+=(-geometry +0+0
			\( "$tmp/pre$n.png" "$tmp/f$n.jpg" -geometry +0+0 -compose Difference -composite -evaluate Pow 2 \)
			-geometry +0+0 -compose Multiply -composite -compose Over -format '%[fx:mean] ' -write info: +delete
			mpr:mask -write info: +delete
			\( "$tmp/pre$n.png" "$tmp/f$n.jpg" -geometry +0+0 -compose Mathematics -define compose:args=0,1,-1,0.5 -composite
			-compose Over -morphology Convolve "$kern" -write mpr:ge \( +clone -fill gray50 -colorize 100 \)
			-geometry +0+0 -compose Difference -composite -evaluate Pow 2 mpr:mask -geometry +0+0 -compose Multiply -composite -compose Over \)
			-write info: +delete \( mpr:ge mpr:mask -geometry +0+0 -compose Multiply -composite -compose Over \) -write info: +delete \))
	done
	rms=$("${c[@]}" -size 1x1 xc:white null:)
	read -r -a rmsv <<<"$rms"
	local k=0
	for n in "$@"; do
		read -r jpegrms[n] jpegmf[n] < <(awk -v e2="${rmsv[k]}" -v w="${rmsv[k + 1]}" -v g2="${rmsv[k + 2]}" -v g1="${rmsv[k + 3]}" -v n2="${mfn2[n]}" 'BEGIN {
			d = g1 / w - 0.5; v = g2 / w - d * d
			if (v < 0) v = 0
			printf "%.3f %.3f\n", 255 * sqrt(e2 / w), 255 * sqrt(v / n2) }')
		k=$((k + 4))
	done
}

cmd=("${im[@]}")
if [ "$class" = sweep ]; then
	# Hundreds of frames per process: nothing per frame forks (a fork costs tens of ms on a
	# loaded machine), so the offsets and levels are computed once, up front.
	[ $# -eq 8 ] || usage
	module=$5
	IFS=, read -r -a angles <<<"$6"
	IFS=, read -r -a blurs <<<"$7"
	IFS=, read -r -a contrasts <<<"$8"
	newhex "$sym:$seed0:sweep:$module"
	maketext "$sym:$seed0:$module"
	drawsym "$tmp/sym.png"
	read -r w0 h0 < <(identify -format '%w %h\n' "$tmp/sym.png")
	w0=$((w0 + 2 * border)) h0=$((h0 + 2 * border))
	paper=$(lerp 5 70 90)
	scale=$(unfx $(($(fx "$module") / 8)))
	inks=()
	for contrast in "${contrasts[@]}"; do
		inks+=("$(unfx $(($(fx "$paper") * (1000000 - $(fx "$contrast")) / 1000000)))")
	done
	# One offset per angle from the frame's numbers, in one awk.
	mapfile -t offs < <(awk -v h="$hex" -v w="$w0" -v hh="$h0" -v m="$module" -v W=$W -v H=$H -v list="$6" 'BEGIN {
		n = split(list, A, ",")
		for (i = 1; i <= n; i++) {
			u1 = ("0x" substr(h, 1 + 4 * ((2 * i) % 32), 4)) / 65536
			u2 = ("0x" substr(h, 1 + 4 * ((2 * i + 1) % 32), 4)) / 65536
			s = m / 8; r = A[i] * 3.14159265358979 / 180; c = cos(r); sn = sin(r)
			if (c < 0) c = -c
			if (sn < 0) sn = -sn
			lw = s * (w * c + hh * sn); lh = s * (w * sn + hh * c)
			sx = (W - lw) / 2; sy = (H - lh) / 2
			if (sx < 0) sx = 0
			if (sy < 0) sy = 0
			printf "%+d%+d\n", (2 * u1 - 1) * sx, (2 * u2 - 1) * sy
		}
	}')
	cmd+=("$tmp/sym.png" -colorspace Gray -bordercolor white -border "$border" -write mpr:sym +delete)
	base=$dir/sweep-$module-$seed0
	k=0
	for ai in "${!angles[@]}"; do
		angle=${angles[$ai]}
		cmd+=(\( -size "${W}x${H}" xc:white \( mpr:sym -virtual-pixel white -filter Triangle +distort SRT "$scale $angle" \)
			-gravity center -geometry "${offs[$ai]}" -composite +gravity -colorspace Gray -write mpr:base +delete \))
		for blur in "${blurs[@]}"; do
			for ci in "${!contrasts[@]}"; do
				v=(\( mpr:base +level "${inks[$ci]}%,${paper}%")
				case $blur in 0 | 0.0 | 0.00) ;; *) v+=(-gaussian-blur "0x$blur") ;; esac
				v+=(-seed $((seed0 % 100000 + k + 1)) -attenuate 0.2 +noise Gaussian -colorspace Gray -depth 8 -write "$tmp/f$k.png" +delete \))
				cmd+=("${v[@]}")
				names[k]="${base}_a${angle}_b${blur}_c${contrasts[$ci]}.png"
				k=$((k + 1))
			done
		done
	done
	"${cmd[@]}" -size 1x1 xc:white null:
	for i in "${!names[@]}"; do mv "$tmp/f$i.png" "${names[$i]}"; done
	printf '%s\nsym=%s seed=%s class=sweep module=%s paper=%s noise=2\n' "$text" "$sym" "$seed0" "$module" "$paper" >"$base.txt"
	exit 0
fi

count=${5:-1}
texts=() jpegs=()
for ((n = 0; n < count; n++)); do
	seed=$((seed0 + n))
	newhex "$sym:$seed:$class"
	maketext "$sym:$seed:$class"
	angle=$(lerp 0 0 360) module=$(lerp 1 1.5 3.0) blur=$(lerp 2 0 0.4) contrast=$(lerp 3 25 100)
	persp=0 motion=0 light=0 jpeg=0 noise=2 clutter=0 symbol=1
	case $class in
	plain) ;;
	perspective) persp=1 ;;
	defocus) blur=$(lerp 2 0.5 0.8) ;;
	motion) motion=1 ;;
	light) light=1 ;;
	jpeg) jpeg=1 ;;
	noise) noise=$(lerp 4 4 10) ;;
	clutter) clutter=1 ;;
	small) module=$(lerp 1 1.0 1.5) ;;
	none) clutter=1 symbol=0 text="" ;;
	mixed | nearmiss)
		k=0
		for d in persp motion light jpeg noise clutter; do
			if chance $((20 + k)) 0.5; then
				case $d in
				noise) noise=$(lerp 4 4 10) ;;
				*) eval "$d=1" ;;
				esac
			fi
			k=$((k + 1))
		done
		;;
	*)
		echo "gen3: unknown class $class" >&2
		exit 2
		;;
	esac
	# Tuning draws only (never the held-out measure): GEN3_CONTRAST=LO,HI and GEN3_NOISE=LO,HI
	# force the contrast (%) and the noise (× the base's tenth, as the noise class draws it)
	# into those ranges, from the same random numbers; GEN3_MODULE=LO,HI the module (px).
	nm=0
	[ "$class" = nearmiss ] && nm=1
	if [ -n "${GEN3_CONTRAST:-}" ]; then contrast=$(lerp 3 "${GEN3_CONTRAST%,*}" "${GEN3_CONTRAST#*,}"); fi
	if [ -n "${GEN3_MODULE:-}" ]; then module=$(lerp 1 "${GEN3_MODULE%,*}" "${GEN3_MODULE#*,}"); fi
	if [ -n "${GEN3_NOISE:-}" ]; then noise=$(lerp 4 "${GEN3_NOISE%,*}" "${GEN3_NOISE#*,}"); fi
	paper=$(lerp 5 70 90)
	narrow=$module quality=0
	[ "$jpeg" = 1 ] && quality=$((30 + $(pick 25 40)))
	scene=(-size "${W}x${H}" xc:white)
	if [ "$clutter" = 1 ]; then
		# Dark blocks, stripes of code-like pitch, lines and rings (levels relative to the
		# paper: the ink's contrast applies to them too).
		draw=""
		for ((i = 0; i < 12; i++)); do
			x=$(pick $((16 + i % 16)) $W) y=$(pick $(((i * 7 + 3) % 32)) $H)
			sz=$((10 + $(u $(((i * 5 + 1) % 32))) * 90 / 65536))
			lvl=$(unfx $((200000 + 60 * $(u $(((i * 3 + 2) % 32))) * 10000 / 65536)))
			case $((i % 4)) in
			0) draw+=" fill gray(${lvl}%) rectangle $x,$y $((x + sz)),$((y + sz / 2))" ;;
			1) for j in 0 1 2 3 4 5; do draw+=" fill gray(${lvl}%) rectangle $((x + j * 6)),$y $((x + j * 6 + 2)),$((y + sz))"; done ;;
			2) draw+=" stroke gray(${lvl}%) stroke-width 2 line $x,$y $((x + sz)),$((y + sz / 3)) stroke none" ;;
			3) draw+=" fill none stroke gray(${lvl}%) stroke-width 3 circle $x,$y $((x + sz / 3)),$y stroke none" ;;
			esac
		done
		scene+=(-draw "$draw")
	fi
	cmd+=(\( "${scene[@]}")
	if [ "$symbol" = 1 ]; then
		if [ "$nm" = 1 ]; then drawnear "$tmp/sym$n.png"; else drawsym "$tmp/sym$n.png"; fi
		read -r w0 h0 < <(identify -format '%w %h\n' "$tmp/sym$n.png")
		w0=$((w0 + 2 * border)) h0=$((h0 + 2 * border))
		lab=(\( "$tmp/sym$n.png" -colorspace Gray -bordercolor white -border "$border" -virtual-pixel white)
		if [ "$persp" = 1 ]; then
			# Each corner moved inwards by up to 14 % of the side: a label seen from aside.
			pts=$(awk -v w="$w0" -v h="$h0" -v a="$(u 6)" -v b="$(u 7)" -v c="$(u 8)" -v d="$(u 9)" -v e="$(u 10)" -v f="$(u 11)" -v g="$(u 12)" -v k="$(u 13)" 'BEGIN {
				s = 0.14 / 65536
				printf "0,0 %.1f,%.1f  %d,0 %.1f,%.1f  %d,%d %.1f,%.1f  0,%d %.1f,%.1f",
					a*s*w, b*s*h, w, w-c*s*w, d*s*h, w, h, w-e*s*w, h-f*s*h, h, g*s*w, h-k*s*h }')
			lab+=(+distort Perspective "$pts")
			# The narrowest module the label's perspective leaves: its local scale across
			# the bars (matrix codes: across either axis), smallest over the label inside
			# the paper border, times the module.
			narrow=$(narrowest "$pts" "$w0" "$h0")
		fi
		lab+=(-filter Triangle +distort SRT "$(unfx $(($(fx "$module") / 8))) $angle" \))
		geom=$(place "$(u 14)" "$(u 15)" $w0 $h0 "$module" "$angle")
		[ "$nm" = 1 ] && [ "$nmedge" != 0 ] && geom=$(edgeplace "$w0" "$module" "$angle")
		cmd+=("${lab[@]}" -gravity center -geometry "$geom" -composite +gravity)
	fi
	lightf=1
	if [ "$light" = 1 ] && [ "$symbol" = 1 ]; then
		lightf=$(lightat "$geom")
	fi
	mblur=0
	if [ "$motion" = 1 ]; then
		mblur=$(lerp 17 0.5 1.2)
		cmd+=(-motion-blur "0x$mblur+$(lerp 18 0 360)")
	fi
	cmd+=(-colorspace Gray -write mpr:base +delete \))
	ext=png
	[ "$jpeg" = 1 ] && ext=jpg
	out=$tmp/f$n.$ext pre=$tmp/pre$n.png
	finish
	names[n]=$dir/$class-$seed.$ext
	jpegrms[n]=0 jpegmf[n]=0
	if [ "$jpeg" = 1 ] && [ "$symbol" = 1 ] && [ "$nm" = 0 ]; then
		jpegs+=("$n") modules[n]=$module angs[n]=$angle geoms[n]=$geom persps[n]="" narrows[n]=$narrow
		blurs[n]=$(awk -v b="$blur" -v m="$mblur" 'BEGIN { printf "%.4f", sqrt(b * b + m * m) }')
		[ "$persp" = 1 ] && persps[n]=$pts
	fi
	texts[n]=$(printf '%s\nsym=%s seed=%s class=%s module=%s angle=%s blur=%s contrast=%s paper=%s persp=%s motion=%s light=%s jpeg=%s noise=%s clutter=%s narrow=%s mblur=%s quality=%s lightf=%s' \
		"$text" "$sym" "$seed" "$class" "$module" "$angle" "$blur" "$contrast" "$paper" "$persp" "$motion" "$light" "$jpeg" "$noise" "$clutter" "$narrow" "$mblur" "$quality" "$lightf")
	if [ "$nm" = 1 ]; then
		texts[n]="$allow"$'\n'"${texts[n]#*$'\n'} kind=$nmkind drawn=$text $nmdesc"
	fi
done
if [ -n "${GEN3_PARAMS_ONLY:-}" ]; then
	# The text files alone (the frames they describe do not change): parameters added since
	# a cache was drawn, written without drawing it again. JPEG's error needs the frame
	# before JPEG: the JPEG frames are drawn again in the temporary directory (the cache's
	# left as they are; a frame drawn differently is reported) and measured there.
	if [ ${#jpegs[@]} -gt 0 ]; then
		"${cmd[@]}" -size 1x1 xc:white null:
		jpegerr "${jpegs[@]}"
		for n in "${jpegs[@]}"; do
			cmp -s "$tmp/f$n.jpg" "${names[n]}" || echo "gen3: ${names[n]} differs from its draw again" >&2
		done
	fi
	for ((n = 0; n < count; n++)); do
		printf '%s jpegrms=%s jpegmf=%s\n' "${texts[n]}" "${jpegrms[n]}" "${jpegmf[n]}" >"${names[n]%.*}.txt"
	done
	exit 0
fi
"${cmd[@]}" -size 1x1 xc:white null:
[ ${#jpegs[@]} -eq 0 ] || jpegerr "${jpegs[@]}"
for ((n = 0; n < count; n++)); do
	f=${names[n]}
	mv "$tmp/f$n.${f##*.}" "$f"
	printf '%s jpegrms=%s jpegmf=%s\n' "${texts[n]}" "${jpegrms[n]}" "${jpegmf[n]}" >"${f%.*}.txt"
done
