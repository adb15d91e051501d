#!/usr/bin/env bash
# The fleet as an operator runs it, in one command: an embedded fleet (posctl fleet serve)
# and N emulated terminals (posd --emulate --config with [fleet], default 3) of two
# retailers on one whole block of the règlement. The terminals race on the same winners
# (each ticket must be paid once: the others answer DÉJÀ PAYÉ AILLEURS), the server is
# killed mid-run (the terminals pay small winners unconfirmed, refuse large ones), then
# started again on its data (the terminals reconcile: every offline payout is claimed),
# and the operator's report and settlement run. It prints a summary and exits non-zero
# if a ticket was paid twice, a journal record did not reach the fleet, an offline payout
# was not claimed, or settlement flags anything. It removes what it made (KEEP=1 keeps
# the working directory and says where; WORK=DIR works in DIR, made if missing, and leaves
# it). Every fleet server runs the operator's console (posctl fleet serve --console,
# docs/console.md); with KEEP=1 the server and its console stay up at the end, and the
# demo prints the console's address and login token. Every step is bounded (WAIT
# seconds): a terminal or a posctl that does not end in time gets SIGQUIT (its
# goroutines' stacks go to its log) and the demo fails.
#
#   bash scripts/fleet-demo.sh                 # 3 terminals, 4 races, 2 offline payouts each
#   N=5 RACES=8 bash scripts/fleet-demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-3}
RACES=${RACES:-4}
OFFLINE=${OFFLINE:-2}
WAIT=${WAIT:-90} # seconds any one step may take (a loaded CI machine is slow)
case "$N" in '' | *[!0-9]* | 0 | 1) echo "fleet-demo: N=$N: want 2 terminals or more" >&2; exit 2 ;; esac

if [ -n "${WORK:-}" ]; then
	mkdir -p "$WORK"
	[ -z "$(ls -A "$WORK")" ] || { echo "fleet-demo: WORK=$WORK is not empty" >&2; exit 2; }
	work=$(cd "$WORK" && pwd)
else
	work=$(mktemp -d)
fi
pids=()
server_pid=
cleanup() {
	local rc=$?
	for fd in "${fds[@]:-}"; do [ -n "$fd" ] && eval "exec $fd>&-" 2>/dev/null || true; done
	for p in "${pids[@]:-}" $server_pid; do [ -n "$p" ] && { kill "$p" 2>/dev/null || true; ended "$p" 10 || true; }; done
	if [ -n "${WORK:-}" ]; then
		: # the caller's directory, left as it is
	elif [ "${KEEP:-0}" = 1 ]; then
		echo "fleet-demo: kept $work"
	else
		rm -rf "$work"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '\n== %s\n' "$*"; }
die() {
	echo "fleet-demo: $*" >&2
	exit 1
}

# wait_for FILE REGEX COUNT: until FILE has COUNT lines matching REGEX (or WAIT seconds).
wait_for() {
	local i
	for ((i = 0; i < WAIT * 10; i++)); do
		[ "$(grep -cE "$2" "$1" 2>/dev/null || true)" -ge "$3" ] && return 0
		sleep 0.1
	done
	echo "fleet-demo: waited ${WAIT}s for $3 × /$2/ in $1; it ends:" >&2
	tail -20 "$1" >&2
	return 1
}

# ended PID SECONDS: waits until PID (a child) has exited, at most SECONDS; past them it
# gets SIGQUIT (a Go program prints its goroutines' stacks on its stderr), then SIGKILL,
# and ended fails.
ended() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null || true; return 0; }
		sleep 0.1
	done
	echo "fleet-demo: process $1 ($(ps -o args= -p "$1" 2>/dev/null || true)) still running after $2 s: SIGQUIT" >&2
	kill -QUIT "$1" 2>/dev/null || true
	sleep 2
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
	return 1
}

bin=$work/bin
say "building posctl and posd"
go build -o "$bin/posctl" ./cmd/posctl
go build -o "$bin/posd" ./cmd/posd
# posctl ARGS...: one posctl command, bounded (WAIT seconds, then SIGQUIT: its stacks).
posctl() { timeout -s QUIT -k 10 "$WAIT" "$bin/posctl" "$@"; }

say "operator: keys and one whole block (block 42, 12,000,000 tickets)"
if [ -n "${BLOCK:-}" ]; then # keys/ and block/ of an earlier run (KEEP=1, or OUT= of scripts/demo.sh)
	ln -s "$(cd "$BLOCK" && pwd)/keys" "$(cd "$BLOCK" && pwd)/block" "$work/"
else
	posctl keys gen --out "$work/keys" >/dev/null
	"$bin/posctl" ledger gen --key "$work/keys/operator.key" --block 42 --out "$work/block" | tail -2 # long: not bounded
fi
pub=$work/keys/operator.pub
# Winners of 2 to 50 € from the printer's file (the terminals' offline limit is 50 €),
# and winners of 60 to 150 € (paid online only): ticket code per line.
(
	set +o pipefail
	gzip -dc "$work/block/block-42.print.csv.gz" | awk -F, -v races="$RACES" -v small="$((N * OFFLINE))" -v n="$N" '
		NR > 1 && $4 >= 200 && $4 <= 5000 && s < races + small { print "small," $5; s++ }
		NR > 1 && $4 >= 6000 && $4 <= 15000 && b < races + n { print "big," $5; b++ }
		s >= races + small && b >= races + n { exit }'
) >"$work/winners.csv"
mapfile -t small < <(grep '^small,' "$work/winners.csv" | cut -d, -f2)
mapfile -t big < <(grep '^big,' "$work/winners.csv" | cut -d, -f2)
[ "${#small[@]}" -eq $((RACES + N * OFFLINE)) ] && [ "${#big[@]}" -eq $((RACES + N)) ] || die "not enough winners in the printer's file"

say "operator: the fleet's registry, $N terminals of two retailers, their status lists"
fleet=$work/fleet
mkdir -p "$fleet"
for r in 7001 7002; do
	posctl status gen --key "$work/keys/operator.key" --retailer $r --version 1 \
		--delivered 42:0-1499999 --out "$work/status-$r.list" >/dev/null
done
ids=()
for ((i = 1; i <= N; i++)); do
	id=$(printf 'T%04d' "$i")
	retailer=$((i % 2 == 1 ? 7001 : 7002))
	ids+=("$id")
	mkdir -p "$work/$id"
	posctl fleet add-terminal --data "$fleet" --id "$id" --retailer $retailer --out "$work/$id/fleet.nk" >/dev/null
	echo "$id: retailer $retailer"
done

# closefds: a process started in the background keeps none of the terminals' input pipes
# (a terminal's input ends only when every writer has closed it).
closefds() {
	local fd
	for fd in "${fds[@]:-}"; do [ -n "$fd" ] && eval "exec $fd>&-"; done
	return 0
}
# start_server LISTEN CONSOLE: the fleet server on LISTEN, its operator's console on CONSOLE.
start_server() {
	(closefds; exec "$bin/posctl" fleet serve --data "$fleet" --ledgers "$work/block" --pub "$pub" --listen "$1" \
		--console "$2" --manifest "$work/block") \
		>>"$work/server.out" 2>>"$work/server.err" &
	server_pid=$!
	local n
	n=$(grep -c 'fleet server on' "$work/server.out" 2>/dev/null || true)
	wait_for "$work/server.out" 'fleet server on' $((n + 1)) || die "the fleet server did not start"
}
fds=()
say "fleet: posctl fleet serve"
: >"$work/server.out"
start_server 127.0.0.1:0 127.0.0.1:0
url=$(grep -o 'nats://[^ ]*' "$work/server.out" | tail -1)
listen=${url#nats://}
console=$(grep -o 'console on http://[^ ]*' "$work/server.out" | tail -1)
console=${console#console on }
console_listen=${console#http://}
echo "fleet server on $url, the operator's console on $console"
for r in 7001 7002; do
	posctl fleet publish-status --data "$fleet" --url "$url" --pub "$pub" "$work/status-$r.list"
done

say "terminals: $N × posd --emulate --config (each with its [fleet] credentials)"
for id in "${ids[@]}"; do
	d=$work/$id
	retailer=$((${id#T} % 2 == 1 ? 7001 : 7002))
	cat >"$d/posd.toml" <<EOF
[terminal]
id = "$id"
retailer = "$retailer"
retailer_name = "TABAC $id"
[limits]
pay_per_ticket = "150,00"
offline_per_ticket = "50,00"
offline_total = "500,00"
[keys]
operator = ["$pub"]
[http]
listen = ""
[fleet]
url = "$url"
credentials = "$d/fleet.nk"
EOF
	mkfifo "$d/in"
	# It waits for its input pipe to have a writer: the pipes are opened below, once every
	# terminal is started, so that none of them holds another's.
	"$bin/posd" --emulate --config "$d/posd.toml" --data "$d/data" --ledger "$work/block/block-42.ledger" \
		--packs "$work/status-$retailer.list" <"$d/in" >"$d/out" 2>"$d/err" &
	pids+=($!)
done
for id in "${ids[@]}"; do
	exec {fd}>"$work/$id/in"
	fds+=("$fd")
done
for id in "${ids[@]}"; do
	wait_for "$work/$id/out" 'SCANNEZ' 1 || die "$id did not start: $(tail -3 "$work/$id/err")"
done
echo "all $N terminals ready"
# Each terminal made its device key at its first start: the operator registers its public
# part, with which the fleet checks every record the terminal publishes (docs/fleet.md,
# "The fleet is the witness").
for id in "${ids[@]}"; do
	devpub=$(find "$work/$id/data" -name device.pub | head -1)
	[ -n "$devpub" ] || die "$id: no device.pub under its data directory"
	posctl fleet set-device-key --data "$fleet" --id "$id" --pub "$devpub" >/dev/null
done

# send I LINE: one input line to terminal number I (0-based).
send() { printf '%s\n' "$2" >&"${fds[$1]}"; }
results='REÇUS IMPRIMÉS|AILLEURS|RÉSEAU INJOIGNABLE|PAIEMENT REFUSÉ|DÉJÀ PAYÉ'
declare -A seen
count() { grep -cE "$2" "$work/${ids[$1]}/out" 2>/dev/null || true; }

# race CODE: every terminal scans CODE, then OK is pressed on all of them at once.
race() {
	local i before
	for ((i = 0; i < N; i++)); do
		before=$(count $i 'GAGNANT')
		send $i "$1"
		wait_for "$work/${ids[$i]}/out" 'GAGNANT' $((before + 1))
	done
	for ((i = 0; i < N; i++)); do seen[$i]=$(count $i "$results"); done
	for ((i = 0; i < N; i++)); do send $i '!ok'; done
	for ((i = 0; i < N; i++)); do wait_for "$work/${ids[$i]}/out" "$results" $((seen[$i] + 1)); done
}

# pay I CODE: terminal I scans CODE and presses OK; waits for its answer.
pay() {
	local before
	before=$(count "$1" 'GAGNANT')
	send "$1" "$2"
	wait_for "$work/${ids[$1]}/out" 'GAGNANT' $((before + 1))
	before=$(count "$1" "$results")
	send "$1" '!ok'
	wait_for "$work/${ids[$1]}/out" "$results" $((before + 1))
}

say "online: $N terminals race on $RACES winners of 2–50 € and $RACES of 60–150 €"
for ((k = 0; k < RACES; k++)); do
	race "${small[$k]}"
	race "${big[$k]}"
done

say "the fleet server goes down (kill -9)"
kill -9 "$server_pid"
ended "$server_pid" "$WAIT" || true
server_pid=
echo "each terminal pays $OFFLINE winner(s) of at most 50 € unconfirmed, and refuses one above"
k=$RACES
for ((i = 0; i < N; i++)); do
	for ((o = 0; o < OFFLINE; o++)); do
		pay $i "${small[$k]}"
		k=$((k + 1))
	done
done
for ((i = 0; i < N; i++)); do
	pay $i "${big[RACES + i]}" # above the offline limit: refused while the fleet is out of reach
done

say "the fleet server comes back on its data"
start_server "$listen" "$console_listen"
echo "waiting for every terminal to publish its journal and claim its offline payouts"
for ((t = 0; t < WAIT; t++)); do
	# report exits 3 while anything is flagged; its JSON is written all the same.
	posctl fleet report --data "$fleet" --url "$url" --json >"$work/report.json" 2>"$work/report.err" || true
	# Done when every offline payout has reached the fleet and none is left unclaimed.
	python3 - "$work/report.json" $((N * OFFLINE)) <<'PY' 2>/dev/null && break
import json, sys
r = json.load(open(sys.argv[1]))
published = sum(row["unconfirmed"] for row in r["report"]["rows"] or [])
sys.exit(published < int(sys.argv[2]) or bool(r["claims"]["paid_not_claimed"]))
PY
	sleep 1
done

say "closing the terminals"
for fd in "${fds[@]}"; do eval "exec $fd>&-"; done
fds=()
for i in "${!pids[@]}"; do
	ended "${pids[$i]}" "$WAIT" || die "${ids[$i]} did not stop when its input ended; it ends: $(tail -40 "$work/${ids[$i]}/err")"
done
pids=()

fail=0
say "posctl fleet report"
rc=0
posctl fleet report --data "$fleet" --url "$url" --manifest "$work/block" >"$work/report.txt" 2>&1 || rc=$?
cat "$work/report.txt"
echo "(exit $rc)"
[ $rc = 0 ] || fail=1
posctl fleet report --data "$fleet" --url "$url" --manifest "$work/block" --json >"$work/report.json" 2>/dev/null || true
say "posctl fleet settle"
rc=0
posctl fleet settle --data "$fleet" --url "$url" --manifest "$work/block" >"$work/settle.txt" 2>&1 || rc=$?
tail -15 "$work/settle.txt"
echo "(exit $rc)"
[ $rc = 0 ] || fail=1

say "summary"
for id in "${ids[@]}"; do
	posctl journal export --format jsonl "$work/$id/data" >"$work/$id/journal.jsonl"
done
python3 - "$work" "$RACES" "${ids[@]}" <<'PY' || fail=1
import json, os, sys
work, races, ids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
paid, elsewhere, unconfirmed, refused_off, heads = {}, 0, 0, 0, {}
for t in ids:
    rows = [json.loads(l) for l in open(os.path.join(work, t, "journal.jsonl")) if l.strip()]
    heads[t] = max((r.get("seq", 0) for r in rows), default=0)
    for r in rows:
        kind, reason = r.get("kind", ""), r.get("reason", "")
        if kind == "payout":
            paid.setdefault(r.get("ticket"), []).append(t)
            unconfirmed += reason == "unconfirmed"
        elif kind == "refused" and reason == "paid-elsewhere":
            elsewhere += 1
        elif kind == "refused" and reason.startswith("fleet-offline"):
            refused_off += 1
rep = json.load(open(os.path.join(work, "report.json")))
fleet = {t["terminal"]: t for t in rep["report"].get("terminals") or rep.get("terminals") or []}
claims = rep.get("claims") or {}
conflicts = sum(r.get("conflicts", 0) for r in rep["report"].get("rows") or [])
twice = {k: v for k, v in paid.items() if len(v) > 1}
lost = {t: (heads[t], fleet.get(t, {}).get("last_seq", 0)) for t in ids if fleet.get(t, {}).get("last_seq", 0) != heads[t]}
raced = 2 * races
print(f"terminals: {len(ids)}; tickets paid: {len(paid)}, each exactly once: {'yes' if not twice else 'NO'}")
for k, v in twice.items():
    print(f"  PAID TWICE: ticket {k} at {', '.join(v)}")
print(f"races: {raced} tickets scanned at every terminal at once; DÉJÀ PAYÉ AILLEURS answers: {elsewhere} (want {raced * (len(ids) - 1)})")
print(f"offline payouts (unconfirmed): {unconfirmed}; claimed by the fleet since: {unconfirmed - len(claims.get('paid_not_claimed') or [])}; refused while the fleet was down: {refused_off}")
print(f"conflicts: {conflicts}; tickets claimed and not paid: {len(claims.get('claimed_not_paid') or [])}")
for t in ids:
    print(f"  {t}: journal head {heads[t]}, the fleet's last record {fleet.get(t, {}).get('last_seq', 0)}")
bad = twice or lost or claims.get("paid_not_claimed") or elsewhere != raced * (len(ids) - 1)
if lost:
    print(f"RECORDS NOT IN THE FLEET: {lost}")
sys.exit(1 if bad else 0)
PY
if [ "${KEEP:-0}" = 1 ]; then
	say "the operator's console stays up (KEEP=1)"
	echo "console: $console"
	echo "login token: $(cat "$fleet/console.token") (in $fleet/console.token)"
	echo "the fleet server (pid $server_pid) keeps running with it: stop both with kill $server_pid"
	server_pid= # cleanup leaves it running
else
	kill "$server_pid" 2>/dev/null || true
	ended "$server_pid" "$WAIT" || { echo "fleet-demo: the fleet server did not stop on SIGTERM: $(tail -40 "$work/server.err")"; fail=1; }
	server_pid=
fi
if [ $fail != 0 ]; then
	echo "fleet-demo: FAILED (working directory: KEEP=1 keeps it)"
	exit 1
fi
echo "fleet-demo: ok"
