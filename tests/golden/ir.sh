# SPDX-License-Identifier: GPL-2.0
# The golden IR of the fixtures, sourced from the repository's root by
# tests/golden/update.sh and tests/cli/golden_ir.sh (docs/ir.md,
# "Conformance").
#
#   golden_fixtures       every fixture, relative to tests/fixtures
#   golden_file FIXTURE   its golden file: tests/golden/NAME.ir
#   golden_gcc FIXTURE    the IR the GCC frontend gives it, on stdout
#   golden_ir FIXTURE     the same from LOCKHOG_IR_FRONTEND when set
#   golden_project        stdin to stdout: only what two frontends can share
#
# A fixture is compiled from inside tests/fixtures under its relative
# name, so that the T and F records say "NAME.c" and "include/kstub.h"
# wherever the repository is.  LOCKHOG_IR_FRONTEND=CMD replaces the GCC
# frontend: CMD FIXTURE runs in tests/fixtures and prints the IR.
GOLDEN_ROOT=$PWD
GOLDEN_DIR=$GOLDEN_ROOT/tests/golden
GOLDEN_PLUGIN=${GOLDEN_PLUGIN:-$GOLDEN_ROOT/build/lockhog.so}

golden_fixtures() {
	(cd "$GOLDEN_ROOT/tests/fixtures" && LC_ALL=C ls -- *.c Inputs/*.c)
}

golden_file() {
	echo "$GOLDEN_DIR/${1%.c}.ir"
}

# The payload as lockhog dump prints it, without its terminating NUL.
golden_gcc() {
	local obj rc

	obj=$(mktemp "${TMPDIR:-/tmp}/golden.XXXXXX") || return 1
	(cd "$GOLDEN_ROOT/tests/fixtures" &&
	 gcc -O2 -c -Iinclude -fplugin="$GOLDEN_PLUGIN" \
		-fplugin-arg-lockhog-rules="$GOLDEN_ROOT/rules/kernel.rules" \
		-fplugin-arg-lockhog-diag=none "$1" -o "$obj") &&
	"$GOLDEN_ROOT/build/lockhog" dump "$obj" | tr -d '\000'
	rc=${PIPESTATUS[0]}
	rm -f "$obj"
	return "$rc"
}

golden_ir() {
	if [ -n "${LOCKHOG_IR_FRONTEND:-}" ]; then
		(cd "$GOLDEN_ROOT/tests/fixtures" && $LOCKHOG_IR_FRONTEND "$1")
	else
		golden_gcc "$1"
	fi
}

# What another frontend can be held to (GOLDEN_COMPARE=project): per
# function its header, its events with variable numbers and blocks left
# out (and returns without their location, which nothing reads), its
# annotations, its loops without block numbers and the kinds of its
# tests, all sorted.
golden_project() {
	awk '
	/^(lockhog-ir|T) / { print; next }
	/^F / { fn = $2 " " $3 " " $4 " " $5; for (i = 7; i <= NF; i++) fn = fn " " $i; print fn; next }
	/^E / {
		$6 = $6 < 0 ? "-" : "v"
		if ($2 == "r") $3 = $4 = "-"
		for (i = 8; i <= NF; i++) { sub(/^v[0-9]+$/, "v", $i); sub(/^&v[0-9]+/, "\\&v", $i) }
		print fn "\t" $0; next
	}
	/^L / { print fn "\tL " $3 " " $4 " " $5 " " $6; next }
	/^A / { print fn "\t" $0; next }
	/^B / && $NF != "-" { print fn "\tB " ($NF ~ /^b/ ? "batch" : "test") }' | LC_ALL=C sort
}
