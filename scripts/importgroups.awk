# Import groups: std, then third party, then github.com/packterm/pos/..., each group one
# kind, separated by a blank line (scripts/test.sh's lint stage; goimports -local keeps the
# order within a group but does not split a group that mixes kinds).
#   awk -f scripts/importgroups.awk $(git ls-files '*.go')
function kind(p) {
	if (p ~ /^github\.com\/packterm\/pos/) return 2
	split(p, parts, "/")
	return (parts[1] ~ /\./) ? 1 : 0
}
function endgroup() {
	if (gk != "") { n++; order[n] = gk }
	gk = ""
}
function check(   i) {
	for (i = 2; i <= n; i++)
		if (order[i] <= order[i - 1]) { print FILENAME ": import groups out of order (std, third party, github.com/packterm/pos)"; bad = 1; return }
}
FNR == 1 { inimp = 0 }
/^import \($/ { inimp = 1; n = 0; gk = ""; mixed = 0; next }
inimp && /^\)$/ { endgroup(); if (!mixed) check(); inimp = 0; next }
inimp && /^[ \t]*$/ { endgroup(); next }
inimp && /"/ {
	match($0, /"[^"]+"/)
	k = kind(substr($0, RSTART + 1, RLENGTH - 2))
	if (gk != "" && gk != k && !mixed) { print FILENAME ": an import group mixes std, third-party and github.com/packterm/pos imports"; bad = 1; mixed = 1 }
	gk = k
}
END { exit bad }
