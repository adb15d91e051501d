#!/usr/bin/env bash
# The project's main job until the terminal daemon exists: an operator's whole block, end
# to end. Generates operator keys, a whole block of the règlement (1,500,000 packs,
# 12,000,000 tickets: signed ledger, printer's file, manifest), verifies the ledger as a
# terminal would, checks one winning and one forged validation code, and audits the block
# against every table and rule of the règlement.
#
#   bash scripts/demo.sh            # in a temporary directory, removed at the end
#   OUT=/tmp/block bash scripts/demo.sh   # keep the files there
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-}
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
bin="$out/posctl"
go build -o "$bin" ./cmd/posctl

echo "== operator keys"
"$bin" keys gen --out "$out/keys"
echo
echo "== whole block 42 of the règlement"
"$bin" ledger gen --key "$out/keys/operator.key" --block 42 --out "$out/block"
echo
echo "== what a terminal checks"
"$bin" ledger verify --pub "$out/keys/operator.pub" "$out/block/block-42.ledger"
"$bin" ledger inspect --pub "$out/keys/operator.pub" "$out/block/block-42.ledger" >"$out/inspect.txt"
sed -n 1,12p "$out/inspect.txt"
echo
echo "== a winning ticket, the same code mistyped, and the same ticket with a forged secret"
# (awk stops reading early: the pipeline's SIGPIPE is expected)
row=$(set +o pipefail; gzip -dc "$out/block/block-42.print.csv.gz" 2>/dev/null | awk -F, 'NR > 1 && $4 >= 100000 { print; exit }')
code=$(echo "$row" | cut -d, -f5)
echo "ticket pack $(echo "$row" | cut -d, -f1), position $(echo "$row" | cut -d, -f2), printed prize $(echo "$row" | cut -d, -f4) cents"
"$bin" ledger check --pub "$out/keys/operator.pub" "$out/block/block-42.ledger" "$code"
mistyped="${code:0:20}$(echo "${code:20:4}" | tr '0-9A-Z' 'A-Z0-9')${code:24}"
"$bin" ledger check --pub "$out/keys/operator.pub" "$out/block/block-42.ledger" "$mistyped" || true
pack=$(echo "$row" | cut -d, -f1); pos=$(echo "$row" | cut -d, -f2)
forged=$("$bin" code render validation 42 "$pack" "$pos" --secret 00112233445566778899 --out "$out/forged.png" | head -1)
"$bin" ledger check --pub "$out/keys/operator.pub" "$out/block/block-42.ledger" "$forged" || true
echo
echo "== audit"
"$bin" ledger audit --pub "$out/keys/operator.pub" "$out/block"
