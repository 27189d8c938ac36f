# SPDX-License-Identifier: GPL-2.0
# Sourced by scripts/kernel-build.sh and scripts/kernel-patches.sh, which
# set SERIES_DIR and define fail: reads $SERIES_DIR/series into PATCHES,
# the patch files in order (blank lines and # comments skipped), and
# fails when the series is missing, empty, or names a file it lacks.
[ -f "$SERIES_DIR/series" ] || fail "$SERIES_DIR/series missing"
PATCHES=()
while read -r p _; do
	case $p in '' | '#'*) continue ;; esac
	[ -f "$SERIES_DIR/$p" ] || fail "series names $p, which is not in $SERIES_DIR"
	PATCHES+=("$p")
done <"$SERIES_DIR/series"
[ ${#PATCHES[@]} -gt 0 ] || fail "the series is empty"
