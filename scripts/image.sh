#!/usr/bin/env bash
# Build the terminal's bootable arm64 disk image (issue 35; docs/firmware.md, "The image"):
#
#   bash scripts/image.sh                 # dist/pos-arm64.img for qemu's virt machine
#   BOARD=rpi bash scripts/image.sh       # dist/pos-arm64-rpi.img for a Raspberry Pi 3/4
#
# Layout (MBR: the Raspberry Pi's boot ROM reads nothing else), 1 MiB aligned:
#   sectors 8-15  the image's seal (posctl fw seal-image; posctl fw verify checks it)
#   p1 boot  FAT32 64 MiB  vmlinuz, initrd.img (posinit + the kernel modules), cmdline.txt;
#                          rpi: config.txt, the device trees (and the boot firmware, if found)
#   p2 root  ext4  24 MiB  read-only, no journal: /sbin/posinit, /usr/local/bin/posboot,
#                          /etc/pos/keys (the image's trust anchors), mount points
#   p3 slots ext4 192 MiB  the A/B slot root (/var/lib/pos/slots), slot a installed, committed
#   p4 data  ext4 224 MiB  conf/posd.toml (bound on /etc/pos/conf), posd/ (data_dir:
#                          journal, ledger, keys statements, spool), bound on /var/lib/posd
#
# The kernel and its modules are Debian's arm64 packages (linux-image-arm64), fetched with
# apt-get download into $POS_IMAGE_CACHE (default ~/.cache/pos-image), never into the repo;
# the arm64 architecture is added to dpkg when missing. No other download.
#
# Reproducible: the same sources, keys, version and kernel give the same bytes
# (SOURCE_DATE_EPOCH: the commit's time; fixed disk id, UUIDs, hash seeds, volume id;
# files sorted; E2FSPROGS_FAKE_TIME for the ext4 superblocks). IMAGE_CHECK=1 builds twice
# and compares.
#
# Inputs (environment): VERSION (1.0.0), BOARD (qemu-virt|rpi), KEYS (dist/image-keys:
# firmware.key/.pub, operator.pub and tech.token, made there once when missing: test
# keys; a real build points KEYS at the operator's), OUT (the image path).
# Needs root (the files of the root must be root's: posboot trusts only root's key files),
# mtools, dosfstools, e2fsprogs, fdisk, cpio, kmod (depmod); installs them when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export LC_ALL=C TZ=UTC

BOARD=${BOARD:-qemu-virt}
VERSION=${VERSION:-1.0.0}
KEYS=${KEYS:-$repo/dist/image-keys}
CACHE=${POS_IMAGE_CACHE:-$HOME/.cache/pos-image}
case $BOARD in
# The qemu-virt board's GPIO parts are emulated inside posd: its image carries the
# production posd plus that one board profile (-tags production,virt: the board emulator
# and the console display, none of the lab's scanner, printer, pty, block generator or LP
# solver); a Raspberry Pi's carries the production posd.
qemu-virt) OUT=${OUT:-$repo/dist/pos-arm64.img} disk=/dev/vda part=/dev/vda tags=production,virt ;;
rpi) OUT=${OUT:-$repo/dist/pos-arm64-rpi.img} disk=/dev/mmcblk0 part=/dev/mmcblk0p tags=production ;;
*) echo "image.sh: BOARD=$BOARD: want qemu-virt or rpi" >&2; exit 2 ;;
esac
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 1764547200)}
export SOURCE_DATE_EPOCH
commit=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
start_time=$(date +%s.%N)
pos_user=998:998 # firmware/pid1's PosUser

say() { printf 'image.sh: %s\n' "$*" >&2; }

# --- tools -------------------------------------------------------------------------
need_tools() {
	local missing="" t
	for t in mkfs.vfat:dosfstools mcopy:mtools mke2fs:e2fsprogs debugfs:e2fsprogs sfdisk:fdisk cpio:cpio depmod:kmod; do
		command -v "${t%%:*}" >/dev/null || missing+=" ${t#*:}"
	done
	[ -z "$missing" ] && return 0
	say "installing$missing"
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null
}

# --- kernel: Debian's arm64 package, cached --------------------------------------------
fetch_kernel() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		say "adding the arm64 architecture to dpkg"
		dpkg --add-architecture arm64
		apt-get update -qq
	fi
	local pkg
	pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	if [ -z "$pkg" ]; then
		apt-get update -qq
		pkg=$(apt-cache depends linux-image-arm64:arm64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	fi
	[ -n "$pkg" ] || { say "linux-image-arm64:arm64 not found by apt"; exit 1; }
	pkg=${pkg%:arm64}
	kver=${pkg#linux-image-}
	mkdir -p "$CACHE/debs"
	local deb
	deb=$(ls "$CACHE/debs/${pkg}_"*_arm64.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		say "fetching $pkg:arm64 with apt-get download"
		(cd "$CACHE/debs" && apt-get download "$pkg:arm64" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
		deb=$(ls "$CACHE/debs/${pkg}_"*_arm64.deb | head -1)
	fi
	kdir=$CACHE/kernel-$kver
	if [ ! -f "$kdir/.done" ]; then
		rm -rf "$kdir"
		mkdir -p "$kdir"
		dpkg-deb -x "$deb" "$kdir"
		depmod -b "$kdir" "$kver"
		touch "$kdir/.done"
	fi
	kdeb=$(basename "$deb")
}

# Modules stage 1 loads, per board (each with what modules.dep says it needs).
modules_qemu="crc32c_generic libcrc32c ext4 virtio_pci virtio_blk virtio_console virtio_net virtio_rng"
modules_rpi="crc32c_generic libcrc32c ext4 reset-raspberrypi sdhci-iproc bcm2835 dwc2 xhci-pci genet broadcom smsc95xx lan78xx cdc-acm ftdi_sio pl2303 ch341 cp210x bcm2835-rng"

# copy_modules DEST NAME...: each module and its dependencies, deps first, as NN-name.ko.
copy_modules() {
	local dest=$1 dep=$kdir/lib/modules/$kver/modules.dep n=0 m line rel list=() seen=" "
	shift
	mkdir -p "$dest"
	for m in "$@"; do
		line=$(grep -E "/${m//_/[-_]}\.ko:" "$dep" || true)
		[ -n "$line" ] || { say "module $m: not in $kver"; exit 1; }
		local deps=(${line#*:})
		local i
		for ((i = ${#deps[@]} - 1; i >= 0; i--)); do list+=("${deps[i]}"); done
		list+=("${line%%:*}")
	done
	for rel in "${list[@]}"; do
		case $seen in *" $rel "*) continue ;; esac
		seen+="$rel "
		n=$((n + 1))
		cp "$kdir/lib/modules/$kver/$rel" "$dest/$(printf %02d $n)-$(basename "$rel")"
	done
}

# --- our binaries ------------------------------------------------------------------
build_go() {
	local pkg=github.com/packterm/pos/internal/version
	local ldflags="-s -w -buildid= -X $pkg.Version=$VERSION -X $pkg.Commit=$commit -X $pkg.stamp=@(#)pos-stamp;version=$VERSION;commit=$commit;"
	say "building posinit, posboot, posd, posctl for linux/arm64 ($VERSION${tags:+, -tags $tags})"
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -trimpath -buildvcs=false -tags "$tags" -ldflags "$ldflags" \
		-o "$work/arm64/" ./cmd/posinit ./cmd/posboot ./cmd/posd ./cmd/posctl
	CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$work/host/" ./cmd/posctl
	posctl=$work/host/posctl
}

keys() {
	mkdir -p "$KEYS"
	[ -f "$KEYS/firmware.key" ] || "$posctl" keys gen --firmware --out "$KEYS" >/dev/null
	[ -f "$KEYS/operator.pub" ] || "$posctl" keys gen --out "$KEYS" >/dev/null
	[ -f "$KEYS/tech.token" ] || (umask 077 && head -c 12 /dev/urandom | base64 | tr -d '\n' >"$KEYS/tech.token")
	token_sha=$(tr -d '\n' <"$KEYS/tech.token" | sha256sum | cut -d' ' -f1)
}

# The configuration the image carries: its trust settings (keys, token, data_dir,
# retailer) are the image's; a technician provisions the rest over the link.
config() {
	local scanner=/dev/hvc0 printer=/dev/hvc1
	[ "$BOARD" = rpi ] && scanner=/dev/ttyACM0 printer=/dev/ttyUSB0
	cat <<-EOF
	# posd configuration carried by the image (scripts/image.sh, board $BOARD). Its trust
	# settings ([keys], [technician], data_dir, retailer) change only with the image; the
	# technician provisions the rest, the ledger and the pack status list over the link.
	[terminal]
	id = "${TERMINAL_ID:-POS-0001}"
	retailer = ${RETAILER:-1}
	data_dir = "/var/lib/posd"

	[limits]
	offline_per_ticket = "150,00"

	[board]
	profile = "$BOARD"

	[scanner]
	port = "$scanner"

	[printer]
	port = "$printer"

	[keys]
	operator = ["/etc/pos/keys/operator.pub"]
	firmware = ["/etc/pos/keys/firmware.pub"]

	[technician]
	token_sha256 = "$token_sha"

	[maintenance]
	listen = "tcp:0.0.0.0:7000"
	EOF
}

# fix_times DIR: every file's times to SOURCE_DATE_EPOCH.
fix_times() { find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; }

# mkext4 DIR IMG SIZE_MIB LABEL UUID [OPTIONS...]; ROOT_OWNER (0:0) owns its top directory.
mkext4() {
	local dir=$1 img=$2 size=$3 label=$4 uuid=$5
	shift 5
	fix_times "$dir"
	rm -f "$img"
	E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH mke2fs -q -t ext4 -F -L "$label" -U "$uuid" \
		-E "hash_seed=$uuid,root_owner=${ROOT_OWNER:-0:0},lazy_itable_init=0" -m 0 -I 256 "$@" -d "$dir" "$img" "${size}M"
	# mke2fs -d copies each file's ctime, which touch cannot set: set it to the epoch too
	(cd "$dir" && find . | sort | sed -e 's|^\.||' -e 's|^$|/|' -e "s|.*|sif & ctime @$SOURCE_DATE_EPOCH|") >"$img.ctime"
	E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH debugfs -w -f "$img.ctime" "$img" >/dev/null 2>&1
	rm -f "$img.ctime"
}

stage_boot() {
	local b=$work/boot
	mkdir -p "$b"
	cp "$kdir/boot/vmlinuz-$kver" "$b/vmlinuz"
	# initramfs: stage 1 of posinit and the modules; cpio entries sorted, owned by root
	local i=$work/initramfs
	mkdir -p "$i"/{dev,proc,sys,newroot,lib/modules/pos}
	cp "$work/arm64/posinit" "$i/init"
	: >"$i/initramfs"
	local mods=$modules_qemu
	[ "$BOARD" = rpi ] && mods=$modules_rpi
	copy_modules "$i/lib/modules/pos" $mods
	fix_times "$i"
	(cd "$i" && find . -mindepth 1 -print0 | sort -z | cpio --null -o -H newc --reproducible -R 0:0 --quiet) | gzip -n -9 >"$b/initrd.img"
	local console="console=ttyAMA0"
	[ "$BOARD" = rpi ] && console="console=serial0,115200 console=tty1"
	echo "$console panic=5 loglevel=4 pos.root=${part}2 pos.slots=${part}3 pos.data=${part}4 pos.ip=${POS_IP:-10.0.2.15/24} pos.gw=${POS_GW:-10.0.2.2}" >"$b/cmdline.txt"
	if [ "$BOARD" = rpi ]; then
		cp "$kdir"/usr/lib/linux-image-"$kver"/broadcom/bcm2837-rpi-3-b*.dtb "$kdir"/usr/lib/linux-image-"$kver"/broadcom/bcm2711-rpi-4-b.dtb "$b/"
		cat >"$b/config.txt" <<-EOF
		# Raspberry Pi boot firmware settings (scripts/image.sh): Debian's kernel, our initramfs.
		arm_64bit=1
		kernel=vmlinuz
		initramfs initrd.img followkernel
		cmdline=cmdline.txt
		enable_uart=1
		upstream_kernel=1
		[pi3]
		device_tree=bcm2837-rpi-3-b.dtb
		[pi3+]
		device_tree=bcm2837-rpi-3-b-plus.dtb
		[pi4]
		device_tree=bcm2711-rpi-4-b.dtb
		EOF
		rpi_firmware "$b"
	fi
	fix_times "$b"
	rm -f "$work/boot.vfat"
	mkfs.vfat -C -F 32 -n POSBOOT -i 504f5301 --invariant "$work/boot.vfat" $((64 * 1024)) >/dev/null
	# mtools: no clock in the entries (SOURCE_DATE_EPOCH via -m for the times it copies)
	local f
	for f in $(cd "$b" && ls | sort); do
		MTOOLS_SKIP_CHECK=1 mcopy -m -i "$work/boot.vfat" "$b/$f" "::$f"
	done
}

# rpi_firmware DIR: the Raspberry Pi's boot firmware from Debian's raspi-firmware package
# (the non-free-firmware component). When the machine's apt sources lack that component,
# it is fetched through a private apt state (this build's directory) naming the machine's
# own Debian mirror and release with non-free-firmware: nothing of the machine's apt is
# changed, nothing comes from elsewhere than Debian. Only what a Pi 3/4 boots with is
# copied (bootcode.bin, start/fixup for the Pi 3, start4/fixup4 for the Pi 4), with the
# package's copyright file (the firmware's licence) beside it.
rpi_firmware() {
	local deb
	deb=$(ls "$CACHE"/debs/raspi-firmware_*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ] && apt-cache show raspi-firmware >/dev/null 2>&1; then
		(cd "$CACHE/debs" && apt-get download raspi-firmware 2>/dev/null) || true
		deb=$(ls "$CACHE"/debs/raspi-firmware_*.deb 2>/dev/null | head -1 || true)
	fi
	if [ -z "$deb" ]; then
		rpi_firmware_fetch || true
		deb=$(ls "$CACHE"/debs/raspi-firmware_*.deb 2>/dev/null | head -1 || true)
	fi
	if [ -z "$deb" ]; then
		say "raspi-firmware could not be fetched (Debian's non-free-firmware component): the boot partition has no start*.elf/fixup*.dat; see docs/firmware.md"
		echo "no-raspi-firmware" >"$1/MISSING-FIRMWARE.txt"
		return 0
	fi
	local x=$work/raspi-fw f
	dpkg-deb -x "$deb" "$x"
	for f in bootcode.bin start.elf fixup.dat start4.elf fixup4.dat; do
		install -m 0644 "$x/usr/lib/raspi-firmware/$f" "$1/$f"
	done
	install -m 0644 "$x/usr/share/doc/raspi-firmware/copyright" "$1/LICENCE.raspi-firmware"
	say "boot firmware from $(basename "$deb")"
}

# rpi_firmware_fetch: apt-get download raspi-firmware into $CACHE/debs through a private
# apt state with the non-free-firmware component of the machine's Debian mirror and release.
rpi_firmware_fetch() {
	local st=$work/apt-nff mirror codename
	mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/*$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
	mirror=${mirror:-http://deb.debian.org/debian}
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	mkdir -p "$st/lists/partial" "$st/cache/archives/partial"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: non-free-firmware\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$mirror" "$codename" >"$st/nff.sources"
	local apt=(-o Dir::Etc::sourcelist="$st/nff.sources" -o Dir::Etc::sourceparts=/dev/null
		-o Dir::State::Lists="$st/lists" -o Dir::Cache="$st/cache")
	say "fetching raspi-firmware from $mirror $codename non-free-firmware (a private apt state)"
	apt-get "${apt[@]}" update -qq >/dev/null 2>&1 || return 1
	(cd "$CACHE/debs" && apt-get "${apt[@]}" download raspi-firmware 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2)
}

stage_root() {
	local r=$work/root
	mkdir -p "$r"/{sbin,usr/local/bin,etc/pos/keys,etc/pos/conf,var/lib/pos/slots,var/lib/posd,data,dev,proc,sys,run,tmp}
	install -m 0755 "$work/arm64/posinit" "$r/sbin/posinit"
	install -m 0755 "$work/arm64/posboot" "$r/usr/local/bin/posboot"
	install -m 0644 "$KEYS/firmware.pub" "$r/etc/pos/keys/firmware.pub"
	install -m 0644 "$KEYS/operator.pub" "$r/etc/pos/keys/operator.pub"
	chmod 0755 "$r/etc/pos/keys" "$r/etc/pos" "$r"
	chmod 1777 "$r/tmp"
	echo "$VERSION" >"$r/etc/pos/image-version"
	chown -R 0:0 "$r"
	mkext4 "$r" "$work/root.ext4" 24 POSROOT 504f5302-0000-4000-8000-000000000002 -O ^has_journal
}

stage_slots_data() {
	local conf=$work/data/conf/posd.toml
	mkdir -p "$work/data/conf" "$work/data/posd" "$work/slots"
	config >"$conf"
	chmod 0640 "$conf"
	"$posctl" fw build --version "$VERSION" --target linux-arm64 --board "$BOARD" \
		--posd "$work/arm64/posd" --posctl "$work/arm64/posctl" --config "$conf" \
		--operator-key "$KEYS/operator.pub" --key "$KEYS/firmware.key" --out "$work/slot-a.bundle" >/dev/null
	"$posctl" fw install --root "$work/slots" --trust "$KEYS/firmware.pub" --commit "$work/slot-a.bundle" >/dev/null
	chmod 0750 "$work/slots" "$work/data/posd" "$work/data/conf"
	# posboot and posd run as the pos user (uid and gid 998: firmware/pid1's PosUser), who
	# owns what they write: the slot root, posd's data directory and the configuration's
	chown -R 0:0 "$work/data"
	chown -R $pos_user "$work/slots" "$work/data/posd" "$work/data/conf"
	ROOT_OWNER=$pos_user mkext4 "$work/slots" "$work/slots.ext4" 192 POSSLOTS 504f5303-0000-4000-8000-000000000003
	mkext4 "$work/data" "$work/data.ext4" 224 POSDATA 504f5304-0000-4000-8000-000000000004
}

assemble() {
	local mib=$((1024 * 1024)) img=$work/image.img
	# start (MiB) and size (MiB) of each partition
	local p1=1 s1=64 p2=65 s2=24 p3=89 s3=192 p4=281 s4=224
	local total=$((p4 + s4))
	rm -f "$img"
	truncate -s $((total * mib)) "$img"
	sfdisk -q --no-reread --no-tell-kernel "$img" <<-EOF
	label: dos
	label-id: 0x504f5300
	unit: sectors
	start=$((p1 * 2048)), size=$((s1 * 2048)), type=c, bootable
	start=$((p2 * 2048)), size=$((s2 * 2048)), type=83
	start=$((p3 * 2048)), size=$((s3 * 2048)), type=83
	start=$((p4 * 2048)), size=$((s4 * 2048)), type=83
	EOF
	dd if="$work/boot.vfat" of="$img" bs=1M seek=$p1 conv=notrunc,sparse status=none
	dd if="$work/root.ext4" of="$img" bs=1M seek=$p2 conv=notrunc,sparse status=none
	dd if="$work/slots.ext4" of="$img" bs=1M seek=$p3 conv=notrunc,sparse status=none
	dd if="$work/data.ext4" of="$img" bs=1M seek=$p4 conv=notrunc,sparse status=none
	"$posctl" fw seal-image --key "$KEYS/firmware.key" --version "$VERSION" --target linux-arm64 --board "$BOARD" "$img" >&2
	mkdir -p "$(dirname "$OUT")"
	mv "$img" "$OUT"
	"$posctl" fw verify --trust "$KEYS/firmware.pub" "$OUT" >&2
}

build_once() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/pos-image.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	build_go
	keys
	stage_boot
	stage_root
	stage_slots_data
	assemble
	rm -rf "$work"
	trap - EXIT
}

need_tools
fetch_kernel
build_once
end_time=$(date +%s.%N)
say "$OUT: $(du -k --apparent-size "$OUT" | cut -f1) KiB ($(du -k "$OUT" | cut -f1) KiB allocated), kernel $kdeb, built in $(awk -v a="$start_time" -v b="$end_time" "BEGIN{printf \"%.1f\", b-a}") s"
if [ "${IMAGE_CHECK:-0}" = 1 ]; then
	first=$(sha256sum "$OUT" | cut -d' ' -f1)
	build_once
	second=$(sha256sum "$OUT" | cut -d' ' -f1)
	[ "$first" = "$second" ] || { say "NOT reproducible: $first then $second"; exit 1; }
	say "reproducible: built twice, sha256 $first"
fi
