#!/usr/bin/env bash
# The third frame generator (issue 34): a code drawn by zint and distorted by ImageMagick,
# sharing no code with drivers/barcode or the first two generators (its Go tests only call
# this script). One 640×480 grey camera-like frame per call.
#
#   frame.sh OUT SYMBOLOGY SEED CLASS [MODULE ANGLE BLUR CONTRAST]
#
#   OUT         output file without extension; the script writes OUT.png or OUT.jpg (class
#               jpeg, or mixed when it draws JPEG) and OUT.txt (the encoded text, one line)
#   SYMBOLOGY   code128 | itf | qr | dm
#   SEED        integer; every random choice (text, placement, distortions, noise) follows
#               from it, the same on every machine (sha512 of the seed, not a shell RNG)
#   CLASS       sweep: only the four grid parameters below, a paper level of 70–90 %, sensor
#               noise of σ 2 grey levels, the symbol at a random offset;
#               plain | perspective | defocus | motion | light | jpeg | noise | clutter | small |
#               mixed: any angle (0–360°), narrow module 1.5–3 px (small: 1.0–1.5), Gaussian
#               blur σ 0–0.4 px (defocus: 0.5–0.8), contrast 25–100 % (ink against paper),
#               plus the class's own distortion (mixed: three of them at random)
#   MODULE ANGLE BLUR CONTRAST
#               sweep only: narrow module in px, angle in degrees, Gaussian σ in px, contrast
#               in % ((paper − ink) / paper)
#
# Needs zint (Debian zint) and ImageMagick 6 or 7 (Debian imagemagick).
set -euo pipefail
# One thread: the sweep runs a frame per core.
export MAGICK_THREAD_LIMIT=1 OMP_NUM_THREADS=1

if [ $# -lt 4 ]; then
	sed -n '2,25p' "$0" >&2
	exit 2
fi
out=$1 sym=$2 seed=$3 class=$4

im=(convert) idf=(identify)
if command -v magick >/dev/null 2>&1; then im=(magick) idf=(magick identify); fi
# A stand-in for convert that is not ImageMagick (it prints no version) cannot distort.
"${im[@]}" -version 2>/dev/null | grep -q ImageMagick || {
	echo "gen3: ImageMagick not installed (Debian package imagemagick)" >&2
	exit 3
}
command -v zint >/dev/null || {
	echo "gen3: zint not installed (Debian package zint)" >&2
	exit 3
}

# Random numbers without a process each (a fork costs tens of ms on a loaded machine): u K is
# the K-th 16-bit number of this frame (32 of them); lerp/pick/chance work in fixed point.
hex=$(printf 'gen3:%s:%s:%s:%s' "$sym" "$seed" "$class" "${*:5}" | sha512sum)
u() { echo $((16#${hex:$(($1 * 4)):4})); }
# fx X: the decimal X (at most 4 decimals) times 10000; unfx N: back to a decimal.
fx() {
	local i=${1%%.*} f=${1#*.}
	[ "$f" = "$1" ] && f=""
	f=${f}0000
	echo $((10#${i:-0} * 10000 + 10#${f:0:4}))
}
unfx() { printf '%d.%04d' $(($1 / 10000)) $(($1 % 10000)); }
# lerp K A B: a number in [A,B) from u K.
lerp() {
	local a b
	a=$(fx "$2") b=$(fx "$3")
	unfx $((a + $(u "$1") * (b - a) / 65536))
}
# pick K N: an integer in [0,N).
pick() { echo $(($(u "$1") * $2 / 65536)); }
# chance K P: true with probability P (a decimal).
chance() { [ $(($(u "$1") * 10000 / 65536)) -lt "$(fx "$2")" ]; }

# The text: digits for the linear codes, Crockford base 32 for the matrix ones. It needs no
# valid check character: the decoder knows nothing of our formats.
text=""
case $sym in
code128) n=12 alphabet=0123456789 ;;
itf) n=14 alphabet=0123456789 ;;
qr | dm) n=25 alphabet=0123456789ABCDEFGHJKMNPQRSTVWXYZ ;;
*)
	echo "gen3: unknown symbology $sym" >&2
	exit 2
	;;
esac
thex=$(printf 'gen3-text:%s:%s:%s' "$sym" "$seed" "${*:5}" | sha512sum)
for ((i = 0; i < n; i++)); do
	v=$((16#${thex:$((i * 2)):2} % ${#alphabet}))
	text+=${alphabet:$v:1}
done

# Parameters.
persp=0 motion=0 light=0 jpeg=0 noise=2 clutter=0
if [ "$class" = sweep ]; then
	[ $# -eq 8 ] || {
		echo "gen3: sweep needs MODULE ANGLE BLURS CONTRASTS" >&2
		exit 2
	}
	module=$5 angle=$6
	IFS=, read -r -a blurs <<<"$7"
	IFS=, read -r -a contrasts <<<"$8"
else
	angle=$(lerp 0 0 360)
	module=$(lerp 1 1.5 3.0)
	blur=$(lerp 2 0 0.4)
	contrast=$(lerp 3 25 100)
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
	mixed)
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
	blurs=("$blur") contrasts=("$contrast")
fi
paper=$(lerp 5 70 90)

# zint draws 8 px per module (scale 4); ImageMagick scales it to the module asked.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $sym in
code128) zint -b 20 --height=50 --notext --quietzones --scale=4 -d "$text" -o "$tmp/sym.png" >/dev/null ;;
itf) zint -b 3 --height=50 --notext --quietzones --scale=4 -d "$text" -o "$tmp/sym.png" >/dev/null ;;
qr) zint -b 58 --vers=2 --secure=2 --quietzones --scale=4 -d "$text" -o "$tmp/sym.png" >/dev/null ;;
dm) zint -b 71 --square --quietzones --scale=4 -d "$text" -o "$tmp/sym.png" >/dev/null ;;
esac
scale=$(unfx $(($(fx "$module") / 8)))
# A paper label of 3 modules beyond zint's quiet zones (DataMatrix: zint gives it one module).
border=24
[ "$sym" = dm ] && border=40

# The label, black on white: its contrast and the paper's level are set per frame below
# (+level after the resampling, which is linear, so the order does not matter).
args=("$tmp/sym.png" -colorspace Gray -bordercolor white -border "$border" -virtual-pixel white)
if [ "$persp" = 1 ]; then
	# Each corner moved inwards by up to 14 % of the side: a label seen from aside.
	read -r w h < <("${idf[@]}" -format '%w %h\n' "$tmp/sym.png")
	w=$((w + 2 * border)) h=$((h + 2 * border))
	pts=$(awk -v w="$w" -v h="$h" -v a="$(u 6)" -v b="$(u 7)" -v c="$(u 8)" -v d="$(u 9)" -v e="$(u 10)" -v f="$(u 11)" -v g="$(u 12)" -v k="$(u 13)" 'BEGIN {
		s = 0.14 / 65536
		printf "0,0 %.1f,%.1f  %d,0 %.1f,%.1f  %d,%d %.1f,%.1f  0,%d %.1f,%.1f",
			a*s*w, b*s*h, w, w-c*s*w, d*s*h, w, h, w-e*s*w, h-f*s*h, h, g*s*w, h-k*s*h }')
	args+=(+distort Perspective "$pts")
fi
args+=(-filter Triangle +distort SRT "$scale $angle" +repage)
"${im[@]}" "${args[@]}" "$tmp/label.png"
read -r lw lh < <("${idf[@]}" -format '%w %h\n' "$tmp/label.png")

# The scene: 640×480 of paper (or a desk of clutter), the label at a random place within it.
W=640 H=480
dx=$(($(u 14) * (W - lw) / 65536)) dy=$(($(u 15) * (H - lh) / 65536))
[ "$lw" -gt $W ] && dx=$(((W - lw) / 2))
[ "$lh" -gt $H ] && dy=$(((H - lh) / 2))
scene=(-size "${W}x${H}" xc:white)
if [ "$clutter" = 1 ]; then
	# Clutter: dark blocks, stripes, lines and rings at random, some of code-like pitch.
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
frame=("${scene[@]}" "$tmp/label.png" -geometry "+${dx}+${dy}" -composite)
if [ "$motion" = 1 ]; then
	frame+=(-motion-blur "0x$(lerp 17 0.5 1.2)+$(lerp 18 0 360)")
fi
frame+=(-write mpr:base)

# One frame per blur × contrast (the sweep; a class frame is one of each), all from the
# same scene in one ImageMagick process.
ext=png
[ "$jpeg" = 1 ] && ext=jpg
names=()
for blur in "${blurs[@]}"; do
	for contrast in "${contrasts[@]}"; do
		ink=$(unfx $(($(fx "$paper") * (1000000 - $(fx "$contrast")) / 1000000)))
		v=(\( mpr:base +level "${ink}%,${paper}%")
		if [ "$(fx "$blur")" -gt 100 ]; then
			v+=(-gaussian-blur "0x$blur")
		fi
		if [ "$light" = 1 ]; then
			# Uneven light: a linear fall-off at a random direction times a vignette.
			lo=$(lerp 19 55 85)
			v+=(\( -size "${W}x${H}" "gradient:white-gray(${lo}%)" -distort SRT "$(lerp 24 0 360)" \) -compose Multiply -composite
				\( -size "${W}x${H}" "radial-gradient:white-gray(70%)" \) -compose Multiply -composite -compose Over)
		fi
		v+=(-seed "$((seed % 1000000 + 1))" -attenuate "$(unfx $(($(fx "$noise") / 10)))" +noise Gaussian)
		v+=(-colorspace Gray -depth 8)
		[ "$jpeg" = 1 ] && v+=(-quality $((30 + $(pick 25 40))))
		name=$out
		[ "$class" = sweep ] && name="${out}_b${blur}_c${contrast}"
		v+=(-write "$tmp/f${#names[@]}.$ext" +delete \))
		frame+=("${v[@]}")
		names+=("$name")
	done
done
"${im[@]}" "${frame[@]}" null:
for i in "${!names[@]}"; do
	mv "$tmp/f$i.$ext" "${names[$i]}.$ext"
done
printf '%s\n' "$text" >"$out.txt"
printf 'sym=%s seed=%s class=%s module=%s angle=%s blur=%s contrast=%s paper=%s persp=%s motion=%s light=%s jpeg=%s noise=%s clutter=%s\n' \
	"$sym" "$seed" "$class" "$module" "$angle" "${blurs[*]}" "${contrasts[*]}" "$paper" "$persp" "$motion" "$light" "$jpeg" "$noise" "$clutter" >>"$out.txt"
