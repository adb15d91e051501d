# The third generator's near misses (class nearmiss; sourced by frame.sh, not run alone).
# Each frame's kind follows from its seed: kind SEED mod the symbology's number of kinds, so
# ten consecutive seeds hold every kind. zint draws the code at 8 px per module (or
# ImageMagick draws the look-alike), and the kind's change is made to that picture before
# frame.sh's camera pipeline (as the class mixed draws it) takes it. The text file's first
# line is what may be read: the symbol's own text(s), space-separated, or "-" (nothing may
# read); the parameters add kind= and drawn= (the text zint encoded, "-" for a look-alike).
#
# Linear (code128, itf), in order:
#   cut      a slab of bars cut out of zint's picture: whole characters (Code 128: chosen so
#            that the rest fails its check; ITF: whole pairs, 10 or 12 digits left) or, half
#            the time, 3–30 modules anywhere in the bars
#   edge     the label placed so that the frame's edge cuts its bars, 25–75 % of them seen
#            along its axis (may read: its own text, where the edge cuts the bars at a slant
#            and leaves a line through all of them in the frame)
#   cover    a sheet (paper white or grey 30–95 %) over one end, its edge at up to 35° to
#            the bars, 25–75 % of the bars left
#   length   Code 128 of 10 or 14 digits (may read: its own text), ITF of 12 or 16 digits
#            (the terminal reads 14 only: nothing)
#   pair     two codes side by side on one axis, their bars 8 modules overlapped to 10 apart,
#            one shifted across by 0–10 modules (may read: either text)
#   smudge   a stroke of ink or a white scratch 1–4 modules wide across the bars, at 20–55°
#            from them (may read: its own text; a stroke nearly along the bars would change
#            the symbol on every line, a code printed otherwise: ITF has no check to refuse it)
#   stripes  no code: bars of random widths (Code 128: 1–4 modules; ITF: narrow or wide at
#            random, at least one digit's five elements not two wide), 70 % of them between
#            the symbology's real start and stop patterns
# Matrix (qr, dm), in order:
#   blot     a blot or sticker (ink, white or grey; ellipse or rectangle) over 34–64 % of the
#            symbol, more than its error correction carries (may read: its own text)
#   grid     no code: a grid of random modules with the real finders (QR versions 1–3: the
#            three finders, timing, version 2–3's alignment pattern; DataMatrix 10×10–24×24:
#            the L and the timing edges), drawn by ImageMagick
#   wipe     QR: a slice 2–4 modules wide of one finder, or 5–7 modules of the timing row;
#            DataMatrix: 3–8 modules of one side of the L or of a timing edge; wiped white or
#            inked (may read: its own text)
#   checker  no code: a checkerboard, or a grid of random modules without any finder

nmlin=(cut edge cover length pair smudge stripes)
nmmat=(blot grid wipe checker)

# hexstream KEY N: N×128 hex digits (N SHA-512 digests) for a kind's many random numbers.
hexstream() {
	local i s="" h
	for ((i = 0; i < $2; i++)); do
		h=$(printf 'gen3-nearmiss-stream:%s:%d' "$1" "$i" | sha512sum)
		s+=${h:0:128}
	done
	echo "$s"
}

# linw DIGITS: the width in px of zint's linear symbol of DIGITS digits (with its quiet zones,
# 8 px a module; every linear symbol is 400 px tall).
linw() {
	case $sym in
	code128) echo $(((11 * ($1 / 2 + 2) + 13 + 20) * 8)) ;;
	itf) echo $(((4 + 9 * $1 + 5 + 20) * 8)) ;;
	esac
}

# c128cut DIGITS K M: the column (px) and width of M whole characters of zint's set-C Code 128
# of DIGITS, from character K on (1: the first data character; the check is the last), tried
# from K on until what is left fails its check.
c128cut() {
	awk -v d="$1" -v k0="$2" -v m="$3" 'BEGIN {
		n = length(d) / 2; sum = 105
		for (i = 1; i <= n; i++) { v[i] = substr(d, 2 * i - 1, 2) + 0; sum += i * v[i] }
		v[n + 1] = sum % 103
		for (t = 0; t < n + 2 - m; t++) {
			k = 1 + (k0 - 1 + t) % (n + 2 - m); j = 0
			for (i = 1; i <= n + 1; i++) if (i < k || i >= k + m) s[++j] = v[i]
			c = 105
			for (i = 1; i < j; i++) c += i * s[i]
			if (c % 103 != s[j]) { printf "%d %d\n", 80 + 88 * k, 88 * m; exit }
		}
		printf "%d %d\n", 80 + 88 * k0, 88 * m }'
}

# stripes FILE START: bars of random widths (8 px a module, 400 px tall, 10-module quiet
# zones) from the hex stream hs; START 1 puts the symbology's start and stop around them.
stripes() {
	local draw w
	read -r w draw < <(awk -v h="$hs" -v sym="$sym" -v fr="$2" '
function byte(i) { return 16 * (index(hx, substr(h, 2 * i + 1, 1)) - 1) + index(hx, substr(h, 2 * i + 2, 1)) - 1 }
function add(wd) { if (ne % 2 == 0) out = out sprintf(" rectangle %d,0 %d,399", x, x + 8 * wd - 1); x += 8 * wd; ne++ }
BEGIN {
	hx = "0123456789abcdef"; x = 80; ne = 0; out = ""
	if (sym == "code128") {
		if (fr) { add(2); add(1); add(1); add(2); add(3); add(2) }
		for (i = 0; i < 36; i++) add(1 + byte(i) % 4)
		if (fr) { add(2); add(3); add(3); add(1); add(1); add(1); add(2) }
	} else {
		if (fr) { add(1); add(1); add(1); add(1) }
		# 14 digits of five elements each, wide with probability 0.4; at least one digit
		# not two wide of five (then no valid ITF)
		bad = 0
		for (i = 0; i < 70; i++) { wide[i] = byte(i) < 102; c[int(i / 5)] += wide[i] }
		for (g = 0; g < 14; g++) if (c[g] != 2) bad = 1
		if (!bad) wide[0] = !wide[0]
		# pairs interleave: digit 2p on the bars, 2p+1 on the spaces
		for (p = 0; p < 7; p++) for (k = 0; k < 5; k++) {
			add(wide[10 * p + k] ? 3 : 1); add(wide[10 * p + 5 + k] ? 3 : 1)
		}
		if (fr) { add(3); add(1); add(1) }
	}
	if (ne % 2 == 1) x += 8
	printf "%d%s\n", x + 80, out
}')
	"${im[@]}" -size "${w}x400" xc:white -fill black -draw "$draw" "$1"
}

# modgrid FILE N QZ KIND: an N×N grid of modules (8 px, QZ modules of quiet zone) from the hex
# stream hs: KIND qr (QR's finders, timing and alignment pattern around random modules), dm
# (DataMatrix's L and timing edges), checker (a checkerboard of blocks of 1–2 modules) or
# random (random modules, no finder).
modgrid() {
	local draw
	draw=$(awk -v h="$hs" -v n="$2" -v qz="$3" -v kind="$4" '
function bit(i) { b = 16 * (index(hx, substr(h, 2 * int(i / 8) + 1, 1)) - 1) + index(hx, substr(h, 2 * int(i / 8) + 2, 1)) - 1
	return int(b / 2 ^ (i % 8)) % 2 }
function finder(r0, c0,  r, c, d) {
	for (r = -1; r <= 7; r++) for (c = -1; c <= 7; c++) {
		if (r0 + r < 0 || c0 + c < 0 || r0 + r >= n || c0 + c >= n) continue
		d = (r < 0 || c < 0 || r > 6 || c > 6) ? 0 : ((r == 0 || r == 6 || c == 0 || c == 6) ? 1 : ((r >= 2 && r <= 4 && c >= 2 && c <= 4) ? 1 : 0))
		m[r0 + r, c0 + c] = d; fixed[r0 + r, c0 + c] = 1
	}
}
BEGIN {
	hx = "0123456789abcdef"; blk = 1 + bit(0)
	for (r = 0; r < n; r++) for (c = 0; c < n; c++) m[r, c] = bit(1 + r * n + c)
	if (kind == "checker") for (r = 0; r < n; r++) for (c = 0; c < n; c++) m[r, c] = (int(r / blk) + int(c / blk)) % 2
	if (kind == "qr") {
		finder(0, 0); finder(0, n - 7); finder(n - 7, 0)
		for (i = 8; i < n - 8; i++) { m[6, i] = (i + 1) % 2; m[i, 6] = (i + 1) % 2 }
		if (n > 21) for (r = -2; r <= 2; r++) for (c = -2; c <= 2; c++)
			m[n - 7 + r, n - 7 + c] = (r == -2 || r == 2 || c == -2 || c == 2 || (r == 0 && c == 0)) ? 1 : 0
		m[n - 8, 8] = 1
	}
	if (kind == "dm") for (i = 0; i < n; i++) {
		m[i, 0] = 1; m[n - 1, i] = 1; m[0, i] = (i + 1) % 2; m[i, n - 1] = (n - i) % 2
	}
	out = ""
	for (r = 0; r < n; r++) for (c = 0; c < n; c++) if (m[r, c])
		out = out sprintf(" rectangle %d,%d %d,%d", 8 * (qz + c), 8 * (qz + r), 8 * (qz + c) + 7, 8 * (qz + r) + 7)
	print out
}')
	local side=$((8 * ($2 + 2 * $3)))
	"${im[@]}" -size "${side}x${side}" xc:white -fill black -draw "$draw" "$1"
}

# drawnear FILE: the near miss of this seed (sym, seed, class, text) drawn at zint's scale:
# sets nmkind, allow (what may be read), nmdesc (its parameters), text (what zint encoded,
# "-" for none) and, for the edge kind, nmedge (the fraction of the bars seen) and nmperp.
drawnear() {
	local f=$1 hsave=$hex hs z=$tmp/z$n.png w x cw k m col
	newhex "nearmiss:$sym:$seed"
	nmedge=0 nmdesc=""
	if [ "$lin" = 1 ]; then nmkind=${nmlin[$((seed % ${#nmlin[@]}))]}; else nmkind=${nmmat[$((seed % ${#nmmat[@]}))]}; fi
	if chance 9 0.5; then col=white; else col="gray($(lerp 10 30 95)%)"; fi
	case $nmkind in
	cut)
		drawsym "$z"
		w=$(linw ${#text})
		if chance 1 0.5; then
			m=$((1 + $(pick 3 2)))
			if [ "$sym" = code128 ]; then
				read -r x cw < <(c128cut "$text" $((1 + $(pick 2 7))) "$m")
			else
				k=$(pick 2 $((8 - m))) x=$((80 + 32 + 144 * k)) cw=$((144 * m))
			fi
		else
			cw=$((8 * (3 + $(pick 4 28)))) x=$((80 + $(pick 5 $((w - 160 - 8 * 30)))))
		fi
		"${im[@]}" "$z" -chop "${cw}x0+${x}+0" "$f"
		allow=- nmdesc="cut=${x}+${cw}"
		;;
	edge)
		drawsym "$f"
		allow=$text nmedge=$(lerp 1 0.25 0.75) nmperp=$(lerp 2 0 0.5) nmdesc="seen=$nmedge"
		;;
	cover)
		drawsym "$z"
		w=$(linw ${#text})
		local poly
		poly=$(awk -v w="$w" -v fr="$(lerp 1 0.25 0.75)" -v t="$(lerp 2 0 1.4)" 'BEGIN {
			t -= 0.7; xc = 80 + fr * (w - 160)
			printf "polygon %d,-10 %d,-10 %d,410 %d,410", xc - 210 * t, w + 10, w + 10, xc + 210 * t }')
		if chance 3 0.5; then
			"${im[@]}" "$z" -flop -fill "$col" -draw "$poly" -flop "$f"
		else
			"${im[@]}" "$z" -fill "$col" -draw "$poly" "$f"
		fi
		allow=- nmdesc="cover=${poly// /_}:$col"
		;;
	length)
		local tl=$tlen
		if [ "$sym" = code128 ]; then tlen=$((10 + 4 * $(pick 1 2))); else tlen=$((12 + 4 * $(pick 1 2))); fi
		maketext "$sym:$seed:$class:length"
		tlen=$tl
		drawsym "$f"
		allow=-
		[ "$sym" = code128 ] && allow=$text
		nmdesc="digits=${#text}"
		;;
	pair)
		local t1 g oy w2
		drawsym "$z"
		t1=$text
		maketext "$sym:$seed:$class:2"
		drawsym "$tmp/y$n.png"
		w=$(linw ${#t1}) w2=$(linw ${#text})
		g=$(($(pick 1 19) - 8)) oy=$((8 * $(pick 2 11)))
		x=$((w - 160 + 8 * g))
		"${im[@]}" -size "$((x + w2))x$((400 + oy))" xc:white "$z" -geometry +0+0 -compose Multiply -composite \
			"$tmp/y$n.png" -geometry "+$x+$oy" -compose Multiply -composite "$f"
		allow="$t1 $text" text="$t1+$text" nmdesc="gap=$g shift=$((oy / 8))"
		;;
	smudge)
		drawsym "$z"
		w=$(linw ${#text})
		local x1 x2 sw sc=black
		x1=$((80 + $(pick 1 $((w - 160))))) x2=$((x1 + (2 * $(pick 5 2) - 1) * (150 + $(pick 2 450)))) sw=$((8 + $(pick 3 25)))
		chance 4 0.5 && sc=white
		"${im[@]}" "$z" -stroke "$sc" -strokewidth "$sw" -draw "line $x1,-10 $x2,410" "$f"
		allow=$text nmdesc="smudge=$x1,$x2,$sw,$sc"
		;;
	stripes)
		hs=$(hexstream "$sym:$seed:stripes" 2)
		k=1
		chance 1 0.3 && k=0
		stripes "$f" "$k"
		allow=- text=- nmdesc="framed=$k"
		;;
	blot)
		drawsym "$z"
		local side qz shape=ellipse
		side=$(identify -format %w "$z") qz=32
		[ "$sym" = dm ] && qz=8
		chance 3 0.5 && shape=rectangle
		[ "$(pick 4 3)" = 0 ] && col=black
		local dr
		dr=$(awk -v s="$((side - 2 * qz))" -v q="$qz" -v cx="$(lerp 1 0.4 0.6)" -v cy="$(lerp 2 0.4 0.6)" \
			-v a="$(lerp 5 0.33 0.45)" -v b="$(lerp 6 0.33 0.45)" -v sh="$shape" 'BEGIN {
			x = q + cx * s; y = q + cy * s
			if (sh == "ellipse") printf "ellipse %d,%d %d,%d 0,360", x, y, a * s, b * s
			else printf "rectangle %d,%d %d,%d", x - a * s * 0.89, y - b * s * 0.89, x + a * s * 0.89, y + b * s * 0.89 }')
		"${im[@]}" "$z" -fill "$col" -draw "$dr" "$f"
		allow=$text nmdesc="blot=${dr// /_}:$col"
		;;
	grid)
		hs=$(hexstream "$sym:$seed:grid" 2)
		if [ "$sym" = qr ]; then
			k=$((21 + 4 * $(pick 1 3)))
			modgrid "$f" "$k" 4 qr
		else
			k=$((10 + 2 * $(pick 1 8)))
			modgrid "$f" "$k" 1 dm
		fi
		allow=- text=- nmdesc="size=$k"
		;;
	wipe)
		drawsym "$z"
		local qz=4 nn r c dr wc=white
		[ "$sym" = dm ] && qz=1
		nn=$(($(identify -format %w "$z") / 8 - 2 * qz))
		chance 3 0.5 && wc=black
		k=$(pick 1 4)
		if [ "$sym" = qr ]; then
			# a finder (top left, top right, bottom left): a slice of 2–4 of its 7 modules,
			# across or along; or 3–9 modules of a timing pattern
			r=0 c=0
			[ "$k" = 1 ] && c=$((nn - 7))
			[ "$k" = 2 ] && r=$((nn - 7))
			m=$((2 + $(pick 2 3))) x=$(pick 5 $((8 - m)))
			if [ "$k" = 3 ]; then
				x=$((8 + $(pick 5 $((nn - 16 - m)))))
				dr="rectangle $((8 * (qz + x))),$((8 * (qz + 6))) $((8 * (qz + x + m + 3) - 1)),$((8 * (qz + 7) - 1))"
			elif chance 6 0.5; then
				dr="rectangle $((8 * (qz + c + x))),$((8 * (qz + r))) $((8 * (qz + c + x + m) - 1)),$((8 * (qz + r + 7) - 1))"
			else
				dr="rectangle $((8 * (qz + c))),$((8 * (qz + r + x))) $((8 * (qz + c + 7) - 1)),$((8 * (qz + r + x + m) - 1))"
			fi
		else
			# 3–8 modules of the L (its left or bottom side) or of a timing edge (top or right)
			m=$((3 + $(pick 2 6))) x=$(pick 5 $((nn - m)))
			case $k in
			0) dr="rectangle $((8 * qz)),$((8 * (qz + x))) $((8 * (qz + 1) - 1)),$((8 * (qz + x + m) - 1))" ;;
			1) dr="rectangle $((8 * (qz + x))),$((8 * (qz + nn - 1))) $((8 * (qz + x + m) - 1)),$((8 * (qz + nn) - 1))" ;;
			2) dr="rectangle $((8 * (qz + x))),$((8 * qz)) $((8 * (qz + x + m) - 1)),$((8 * (qz + 1) - 1))" ;;
			3) dr="rectangle $((8 * (qz + nn - 1))),$((8 * (qz + x))) $((8 * (qz + nn) - 1)),$((8 * (qz + x + m) - 1))" ;;
			esac
		fi
		"${im[@]}" "$z" -fill "$wc" -draw "$dr" "$f"
		allow=$text nmdesc="wipe=$k:${dr// /_}:$wc"
		;;
	checker)
		hs=$(hexstream "$sym:$seed:checker" 2)
		k=$((10 + $(pick 1 21)))
		if chance 2 0.5; then modgrid "$f" "$k" 2 checker; m=checker; else modgrid "$f" "$k" 2 random; m=random; fi
		allow=- text=- nmdesc="$m=$k"
		;;
	esac
	hex=$hsave
}

# edgeplace W0 MODULE ANGLE: the label's offset from the frame's centre (for -gravity center)
# that puts the frame's edge across its bars with the fraction nmedge of them seen (the
# label's axis from a point nmperp of the frame's height across the centre).
edgeplace() {
	awk -v w="$1" -v m="$2" -v a="$3" -v f="$nmedge" -v p="$nmperp" -v W=$W -v H=$H -v bd="$border" 'BEGIN {
		s = m / 8; r = a * 3.14159265358979 / 180; c = cos(r); n = sin(r)
		p -= 0.25; px = -n * p * H; py = c * p * H; t = 1e9
		if (c > 1e-6) t = (W / 2 - px) / c; else if (c < -1e-6) t = (-W / 2 - px) / c
		if (n > 1e-6) { ty = (H / 2 - py) / n; if (ty < t) t = ty } else if (n < -1e-6) { ty = (-H / 2 - py) / n; if (ty < t) t = ty }
		lb = w - 2 * bd - 160; u = -lb / 2 + f * lb
		d = t - s * u
		printf "%+d%+d", px + d * c, py + d * n }'
}
