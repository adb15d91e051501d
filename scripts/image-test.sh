#!/usr/bin/env bash
# Boot dist/pos-arm64.img whole under qemu-system-aarch64 -M virt (TCG) and check it end to
# end (issue 35; docs/firmware.md, "The image"):
#
#   1. power on: posd ready (time from power-on), the display says the ledger is missing;
#   2. first provisioning over the maintenance link (qemu user networking, host forward):
#      the ledger; posd restarts and takes it in;
#   3. a pack sold and a winner paid, scanned from the host's emulated scanner (posctl
#      scanner emulate), OK pressed on the emulated board, receipts on the host's emulated
#      printer (posctl printer emulate);
#   4. posctl flash of a newer bundle: the restart into the trial slot and its commit;
#   5. a bundle whose posd fails its trial: rolled back to the previous slot;
#   6. POWER_CUTS (10) power cuts (qemu killed) at random moments, in turn during the
#      transfer, around its end (hash, install, restart) and during the trial and commit: every boot comes up on a good slot, and the journal loses nothing
#      (the paid winner is still paid: DÉJÀ PAYÉ; the journal read back from the disk
#      holds every record it held before).
#
#   bash scripts/image-test.sh            # builds the image first when missing
#   IMAGE=1 bash scripts/test.sh          # the same as a stage of the test script
#
# Figures are printed at the end (FIGURES lines). qemu runs at nice QEMU_NICE (10; 0 for a
# figures run beside other niced work); every process started here is killed by its pid on
# exit.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export LC_ALL=C
IMG=${IMG:-$repo/dist/pos-arm64.img}
KEYS=${KEYS:-$repo/dist/image-keys}
POWER_CUTS=${POWER_CUTS:-10}
PORT=${PORT:-$((17000 + RANDOM % 1000))}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
QEMU_NICE=${QEMU_NICE:-10}

say() { printf '%s image-test: %s\n' "$(date +%T)" "$*" >&2; }
fail() { say "FAIL: $*"; exit 1; }

for t in qemu-system-aarch64:qemu-system-arm qemu-img:qemu-utils mcopy:mtools debugfs:e2fsprogs; do
	command -v "${t%%:*}" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${t#*:}" >/dev/null; }
done
[ -f "$IMG" ] || bash scripts/image.sh

t=$(mktemp -d "${TMPDIR:-/tmp}/pos-image-test.XXXXXX")
pids=()
qemu_pid=""
fpid=""
cleanup() {
	local p
	[ -n "$qemu_pid" ] && kill -9 "$qemu_pid" 2>/dev/null || true
	[ -n "$fpid" ] && kill "$fpid" 2>/dev/null || true
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	[ "${KEEP:-0}" = 1 ] && say "kept $t" || rm -rf "$t"
}
trap cleanup EXIT

posctl=$t/posctl
go build -o "$posctl" ./cmd/posctl
export POS_TECH_TOKEN
POS_TECH_TOKEN=$(tr -d '\n' <"$KEYS/tech.token")
"$posctl" fw verify --trust "$KEYS/firmware.pub" "$IMG" >&2

# The kernel, initramfs and command line qemu boots are the image's own (its boot
# partition, at 1 MiB): a Raspberry Pi's firmware reads the same files.
for f in vmlinuz initrd.img cmdline.txt; do MTOOLS_SKIP_CHECK=1 mcopy -n -i "$IMG@@1M" "::$f" "$t/$f"; done
qemu-img create -q -f qcow2 -b "$IMG" -F raw "$t/disk.qcow2"

# The host's emulated printer and scanner, on pseudo-terminals qemu connects to the
# terminal's virtio consoles (hvc0 scanner, hvc1 printer); hvc2 presses the buttons.
mkfifo "$t/scan.in" "$t/ctl.in" "$t/ctl.out"
"$posctl" printer emulate --link "$t/ttyPRN" --out "$t/receipts" >"$t/printer.log" 2>&1 &
pids+=($!)
"$posctl" scanner emulate --link "$t/ttySCN" --baud 0 <"$t/scan.in" >"$t/scanner.log" 2>&1 &
pids+=($!)
exec 7>"$t/scan.in" 8<>"$t/ctl.in" 9<>"$t/ctl.out"
for _ in $(seq 50); do [ -e "$t/ttyPRN" ] && [ -e "$t/ttySCN" ] && break; sleep 0.1; done

boots=0
boot() {
	boots=$((boots + 1))
	console=$t/console-$boots.log
	: >"$console"
	boot_start=$EPOCHREALTIME
	nice -n "$QEMU_NICE" qemu-system-aarch64 -M virt -cpu cortex-a53 -smp 2 -m 512 -nographic -no-reboot \
		-kernel "$t/vmlinuz" -initrd "$t/initrd.img" -append "$(cat "$t/cmdline.txt")" \
		-drive "file=$t/disk.qcow2,format=qcow2,if=none,id=hd,cache=writeback" -device virtio-blk-pci,drive=hd \
		-netdev "user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:$PORT-:7000" -device virtio-net-pci,netdev=n0 \
		-device virtio-serial-pci \
		-chardev "serial,id=scan,path=$t/ttySCN" -device virtconsole,chardev=scan \
		-chardev "serial,id=prn,path=$t/ttyPRN" -device virtconsole,chardev=prn \
		-chardev "pipe,id=ctl,path=$t/ctl" -device virtconsole,chardev=ctl \
		</dev/null >"$console" 2>&1 &
	qemu_pid=$!
}

# power_cut: qemu killed, as a plug pulled (what the guest had not written is lost).
power_cut() {
	kill -9 "$qemu_pid" 2>/dev/null || true
	wait "$qemu_pid" 2>/dev/null || true
	qemu_pid=""
}

# rnd MAX [FRACTION]: a random number of seconds in [0, MAX × FRACTION).
rnd() { awk -v s="$RANDOM" -v m="$1" -v f="${2:-1}" 'BEGIN { srand(s); printf "%.1f", rand() * m * f }'; }

elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# Waits end on lack of progress, not on a fixed time (a loaded machine slows the guest,
# and a transfer's length follows the bundle's size): a wait fails once nothing new has come
# on this boot's console or on the watched files (the running flash's log, whose progress
# line comes every 5 s while acknowledgements arrive) for its STALL seconds, or after
# WAIT_CAP seconds in all (a guest printing in a loop).
WAIT_CAP=${WAIT_CAP:-1800}
watched=()
# (a watched file not made yet counts as empty: the flash started in the background may
# not have opened its log when the wait begins)
grown() { { stat -c %s "$console" "${watched[@]}" 2>/dev/null || true; } | awk '{ s += $1 } END { print s + 0 }'; }
progress_start() { w_start=$SECONDS w_last=$SECONDS w_size=$(grown); }
# progress_check WHAT STALL: fails the test when the wait for WHAT made no progress.
progress_check() {
	local now
	if [ -n "$qemu_pid" ] && ! kill -0 "$qemu_pid" 2>/dev/null; then
		tail -20 "$console" >&2
		fail "qemu stopped while waiting for $1"
	fi
	now=$(grown)
	[ "$now" = "$w_size" ] || { w_size=$now; w_last=$SECONDS; }
	if [ $((SECONDS - w_last)) -ge "$2" ]; then
		tail -30 "$console" >&2
		fail "no $1: nothing new on the console${watched[*]:+ or in ${watched[*]##*/}} for ${2}s (boot $boots)"
	fi
	[ $((SECONDS - w_start)) -lt "$WAIT_CAP" ] || { tail -30 "$console" >&2; fail "no $1 within ${WAIT_CAP}s (boot $boots)"; }
}

# wait_console PATTERN [STALL] [NTH]: until the NTH line of this boot's console matching
# PATTERN (extended regexp), failing after STALL seconds without progress.
wait_console() {
	local pat=$1 stall=${2:-$BOOT_TIMEOUT} nth=${3:-1}
	progress_start
	while [ "$(grep -Ec -- "$pat" "$console" || true)" -lt "$nth" ]; do
		progress_check "/$pat/" "$stall"
		sleep 0.5
	done
}

display_has() { wait_console "display: .*$1" "${2:-60}"; }
press() { echo "$1" >&8; }
scan() { echo "$1" >&7; }
receipts() { ls "$t/receipts" 2>/dev/null | grep -c '\.txt$' || true; }
wait_receipts() {
	local n=$1 start=$SECONDS
	until [ "$(receipts)" -ge "$n" ]; do
		[ $((SECONDS - start)) -lt 60 ] || fail "only $(receipts) receipts, want $n"
		sleep 0.5
	done
}

# committed VERSION: the slot booted on trial with VERSION is marked good (posinit logs the
# slot state as it changes).
committed() {
	local slot
	slot=$(grep "posboot: starting.*version=$1 trial=true" "$console" | tail -1 | grep -o 'slot=[ab]' | cut -d= -f2)
	wait_console "msg=\"slot state\" .*active=$slot .*trial=false" 240
}

# wait_after PAT1 PAT2 STALL: until a line matching PAT2 follows one matching PAT1.
wait_after() {
	progress_start
	until awk -v a="$1" -v b="$2" '$0 ~ a { seen = 1 } seen && $0 ~ b { found = 1 } END { exit !found }' "$console"; do
		progress_check "/$2/ after /$1/" "$3"
		sleep 0.5
	done
}

# ready: posd said READY=1 to posinit on this boot (the Nth time: restarts).
ready() { wait_console 'msg="service ready"' "$BOOT_TIMEOUT" "${1:-1}"; }

# journal_records: the journal read back from the disk's data partition (qemu stopped),
# exported by the host's posctl; prints the number of records.
journal_records() {
	qemu-img convert -O raw "$t/disk.qcow2" "$t/snap.raw"
	dd if="$t/snap.raw" of="$t/data.ext4" bs=1M skip=281 count=224 status=none
	rm -rf "$t/dump" && mkdir "$t/dump"
	debugfs -R "rdump /posd $t/dump" "$t/data.ext4" >/dev/null 2>&1
	rm -f "$t/snap.raw"
	local jdir
	jdir=$(dirname "$(find "$t/dump" -name device.pub | head -1)")
	"$posctl" journal export "$jdir" --format jsonl | wc -l
}

# bundle VERSION [POSD]: a signed bundle of this tree's posd (or POSD's main) stamped VERSION,
# built as the image's (-tags production,virt: scripts/image.sh).
bundle() {
	local v=$1 main=${2:-./cmd/posd} pkg=github.com/packterm/pos/internal/version out=$t/fw-$1
	local ldflags="-s -w -buildid= -X $pkg.Version=$v -X $pkg.Commit=test -X $pkg.stamp=@(#)pos-stamp;version=$v;commit=test;"
	mkdir -p "$out"
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -trimpath -buildvcs=false -tags production,virt -ldflags "$ldflags" -o "$out/posd" "$main"
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out/" ./cmd/posctl
	debugfs -R "cat /conf/posd.toml" "$t/data0.ext4" >"$out/posd.toml" 2>/dev/null
	"$posctl" fw build --version "$v" --target linux-arm64 --board qemu-virt --posd "$out/posd" --posctl "$out/posctl" \
		--config "$out/posd.toml" --operator-key "$KEYS/operator.pub" --key "$KEYS/firmware.key" --out "$t/fw-$v.bundle" >/dev/null
	echo "$t/fw-$v.bundle"
}

link=tcp:127.0.0.1:$PORT
dd if="$IMG" of="$t/data0.ext4" bs=1M skip=281 count=224 status=none

# --- 1. power on --------------------------------------------------------------------
say "booting $(basename "$IMG") ($(du -k --apparent-size "$IMG" | cut -f1) KiB) under qemu-system-aarch64 -M virt -cpu cortex-a53 -smp 2 (TCG)"
boot
ready
boot_to_ready=$(awk -v a="$boot_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
grep -Eq "msg=\"service runs as\" .*uid=998 gid=998" "$console" || fail "posboot and posd do not run as the pos user (998)"
say "posd ready ${boot_to_ready}s after power-on ($(grep -o 'since_power_on=[^ ]*' "$console" | head -1) by the guest's clock)"
say "display before provisioning: $(grep 'display:' "$console" | tail -1)"

# --- 2. first provisioning: the ledger ------------------------------------------------
cp "$KEYS/operator.key" "$t/operator.key" 2>/dev/null || fail "the image's operator key is not in $KEYS (test keys)"
"$posctl" ledger gen --key "$t/operator.key" --block 42 --definition cmd/posd/testdata/crash-definition.json --out "$t/block" >/dev/null
"$posctl" status gen --key "$t/operator.key" --retailer 1 --version 1 --delivered 42:0-39 --out "$t/status.list" >/dev/null
say "provisioning the ledger and the pack status list over $link"
"$posctl" provision --to "$link" --ledger "$t/block/block-42.ledger" --status "$t/status.list" >&2
ready 2
say "posd restarted with its ledger"

# --- 3. a sale and a payout from the host's scanner and printer -------------------------
row_pack=$(gzip -dc "$t/block/block-42.print.csv.gz" | awk -F, 'NR == 2 { print $6 }')
row_win=$(gzip -dc "$t/block/block-42.print.csv.gz" | awk -F, 'NR > 1 && $4 > 0 && $4 <= 15000 { print $5; exit }')
scan "$row_pack"
display_has "10,00" 60
press ok
wait_receipts 1
scan "$row_win"
display_has "GAGNANT" 60
press ok
wait_receipts 3
grep -q "COPIE COMMER" "$t/receipts"/*.txt || fail "no retailer's copy among the receipts"
say "sold a pack and paid a winner: $(receipts) receipts on the host's printer"

# --- 4. a newer bundle over the link: trial, commit --------------------------------------
b2=$(bundle 1.0.1)
say "flashing 1.0.1 ($(du -k "$b2" | cut -f1) KiB) over $link"
flash_start=$EPOCHREALTIME
"$posctl" flash "$b2" --to "$link" >&2
wait_console 'posboot: starting.*version=1.0.1 trial=true' 180
committed 1.0.1
flash_to_committed=$(elapsed "$flash_start")
say "1.0.1 on trial, then committed: ${flash_to_committed}s from the flash's start"

# --- 5. a bundle whose posd fails its trial rolls back -----------------------------------
b3=$(bundle 1.0.2 ./scripts/testdata/badposd)
"$posctl" flash "$b3" --to "$link" >&2
wait_console 'version=1.0.2 trial=true' 180
wait_console 'posboot: starting.*version=1.0.1 trial=false.*rolled_back=true' 300
wait_after 'rolled_back=true' 'msg="service ready"' 120
say "1.0.2 failed its trial ($(grep -c 'fails its trial on purpose' "$console") starts) and 1.0.1 came back"

# --- 6. power cuts during flash, install and commit --------------------------------------
power_cut
before=$(journal_records)
say "journal: $before records before the power cuts"
survived=0
for i in $(seq "$POWER_CUTS"); do bundle "1.1.$i" >/dev/null; done
boot
for i in $(seq "$POWER_CUTS"); do
	ready
	last=$(grep 'posboot: starting' "$console" | tail -1)
	case $last in *trial=true*) committed "$(echo "$last" | grep -o 'version=[0-9.]*' | cut -d= -f2)" ;; esac
	"$posctl" flash "$t/fw-1.1.$i.bundle" --to "$link" >"$t/flash-$i.log" 2>&1 &
	fpid=$!
	watched=("$t/flash-$i.log")
	# the moment: in turn during the transfer, around its end (the terminal hashes the
	# spool, installs, restarts) and during the trial start and its commit
	cut_start=$EPOCHREALTIME
	case $((i % 3)) in
	1) sleep "$(rnd "${CUT_WINDOW:-$flash_to_committed}" 0.7)" ;;
	2) progress_start
	   until grep -Eq 'firmware: .*\((9[0-9]|100)\.' "$t/flash-$i.log" || ! kill -0 "$fpid" 2>/dev/null; do
		   progress_check "90 % of the transfer" 120
		   sleep 0.5
	   done
	   sleep "$(rnd 15)" ;;
	0) wait_console "version=1.1.$i trial=true" 180
	   sleep "$(rnd 20)" ;;
	esac
	cut=$(elapsed "$cut_start")
	stage=flash
	grep -q 'installed in slot' "$t/flash-$i.log" && stage=install
	grep -q "version=1.1.$i trial=true" "$console" && stage=trial
	grep -q "msg=\"slot state\" .*trial=false boots=0 high_water=1.1.$i" "$console" && stage=committed
	power_cut
	kill "$fpid" 2>/dev/null || true
	wait "$fpid" 2>/dev/null || true
	watched=()
	boot
	wait_console 'posboot: starting' "$BOOT_TIMEOUT"
	line=$(grep 'posboot: starting' "$console" | tail -1)
	survived=$((survived + 1))
	say "cut $i after ${cut}s (during $stage): booted $(echo "$line" | grep -o 'slot=[ab] version=[0-9.]* trial=[a-z]*')"
done
ready
power_cut
after=$(journal_records)
say "journal: $after records after $POWER_CUTS power cuts (before: $before)"
[ "$after" -ge "$before" ] || fail "the journal lost records: $before before, $after after"
boot
ready
scan "$row_win"
display_has "DÉJÀ PAYÉ" 60
say "the winner paid before the cuts is still paid (DÉJÀ PAYÉ)"
power_cut

echo "FIGURES image_bytes=$(stat -c %s "$IMG") boot_to_ready_s=$boot_to_ready flash_to_committed_s=$flash_to_committed power_cuts_survived=$survived/$POWER_CUTS journal_records=$before/$after"
echo "image-test: 1 passed, 0 failed"
