# SPDX-License-Identifier: GPL-2.0
# TAP for the shell suites, sourced from the repository's root:
#
#   ok NAME               "ok N - NAME"
#   notok NAME [LOG]      "not ok N - NAME", then the end of LOG as comments
#   res STATUS NAME [LOG] ok when STATUS is 0, notok otherwise
#
# n counts the tests, fails the failures.
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && [ -f "$2" ] && tail -n 30 "$2" | sed 's/^/# /'
	return 0
}
res() { if [ "$1" = 0 ]; then ok "$2"; else notok "$2" "${3:-}"; fi; }
