# SPDX-License-Identifier: GPL-2.0
# Sourced by scripts/e2e.sh and scripts/bench.sh: the 6.1 trees with the
# runtime patch, small kernels built out of tree under build/e2e, the
# busybox initramfs and one QEMU boot.  The caller sets ROOT and defines
# fail and step.
#
#   build/e2e/src/base       the pristine extraction (never patched)
#   build/e2e/src/pristine   base + kernel-patches/linux-6.1/runtime
#   build/e2e/src/patched    base + the mm series + the runtime
#   build/e2e/src/cur        where a tree is moved to be built
#   build/e2e/out/NAME       a kernel's O= build directory (reused)
#   build/e2e/NAME.log       its serial console, NAME.json its runtime JSON
#
# Source trees are hard-linked copies of base (patch(1) writes a new file
# and renames it, so a patched file never changes base); each carries a
# stamp of the patches applied, and is made again when they change.
#
# Every kernel is built from the same path, src/cur: kbuild records the
# absolute source path in each object's command line, so the patched
# kernel's build directory can start as a copy of the pristine one and
# kbuild recompiles only what the series changed (the unchanged files
# are the same inodes in both trees, with the same mtimes).

E2E=${E2E:-$ROOT/build/e2e}
JOBS=${JOBS:-2}
SERIES_DIR=$ROOT/kernel-patches/linux-6.1
RUNTIME_DIR=$SERIES_DIR/runtime
KCONFIG_FRAGMENT=$ROOT/scripts/e2e-kernel.config
E2E_TIMEOUT=${E2E_TIMEOUT:-900}	# seconds a guest may run before it is killed
# The guest has no ACPI, so no HPET or PM timer to calibrate the TSC
# against, and TCG's PIT is too irregular for it: without a TSC,
# local_clock() falls back to jiffies (4 ms steps).  Under TCG the guest's
# TSC is the host's, so its rate is the host's, given at boot.
E2E_TSC_KHZ=${E2E_TSC_KHZ:-$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)}
E2E_MEM=${E2E_MEM:-1G}	# 1 GiB: the DMA32 zone's pcp batch is 63

e2e_series() {	# DIR: the patches named by DIR/series, as paths
	local dir=$1 p
	while read -r p _; do
		case $p in '' | '#'*) continue ;; esac
		[ -f "$dir/$p" ] || fail "$dir/series names $p, which is missing"
		echo "$dir/$p"
	done <"$dir/series"
}

e2e_apply() {	# DIR PATCH...: with patch -p1, no fuzz, no offset
	local dir=$1 p out
	shift
	for p in "$@"; do
		out=$(patch -d "$dir" -p1 -N --fuzz=0 --no-backup-if-mismatch <"$p" 2>&1) ||
			fail "$(basename "$p") does not apply to $dir: $(echo "$out" | tail -n1)"
		if echo "$out" | grep -q -E 'offset|fuzz'; then
			fail "$(basename "$p") applies to $dir only with an offset or fuzz"
		fi
	done
}

# e2e_tree NAME PATCH...: build/e2e/src/NAME, base with PATCHes applied
e2e_tree() {
	local name=$1 dir=$E2E/src/$1 stamp
	shift
	stamp=$(cat "$@" | sha256sum | cut -c1-16)
	[ -f "$dir/.lockhog-e2e-stamp" ] && [ "$(cat "$dir/.lockhog-e2e-stamp")" = "$stamp" ] &&
		return 0
	if [ ! -f "$E2E/src/base/Makefile" ]; then
		rm -rf "$E2E/src/base"
		"$ROOT/scripts/kernel-tree.sh" "$E2E/src/base" || fail "could not extract the 6.1 tree"
	fi
	rm -rf "$dir"
	cp -al "$E2E/src/base" "$dir"
	e2e_apply "$dir" "$@"
	echo "$stamp" >"$dir/.lockhog-e2e-stamp"
	step "tree $name: base + $(for p in "$@"; do basename "$p" .patch | cut -c1-4; done | tr '\n' ' ')"
}

# e2e_enter TREE NAME: moves src/TREE to src/cur and out/NAME to out/cur;
# e2e_leave moves them back (and is the EXIT trap, so a failed or killed
# build leaves them where they belong)
e2e_enter() {
	e2e_leave
	mkdir -p "$E2E/out/$2"
	mv "$E2E/src/$1" "$E2E/src/cur" || fail "cannot move src/$1 to src/cur"
	echo "$1" >"$E2E/src/cur/.lockhog-e2e-tree"
	mv "$E2E/out/$2" "$E2E/out/cur" || fail "cannot move out/$2 to out/cur"
	echo "$2" >"$E2E/out/cur/.lockhog-e2e-name"
}

e2e_leave() {
	local t n
	if [ -d "$E2E/src/cur" ]; then
		t=$(cat "$E2E/src/cur/.lockhog-e2e-tree" 2>/dev/null) || t=
		case $t in pristine | patched) ;; *) fail "src/cur is no tree of e2e's: remove it" ;; esac
		rm -f "$E2E/src/cur/.lockhog-e2e-tree"
		mv "$E2E/src/cur" "$E2E/src/$t"
	fi
	if [ -d "$E2E/out/cur" ]; then
		n=$(cat "$E2E/out/cur/.lockhog-e2e-name" 2>/dev/null) || n=
		case $n in '' | */* | cur) fail "out/cur is no kernel of e2e's: remove it" ;; esac
		rm -f "$E2E/out/cur/.lockhog-e2e-name"
		mv "$E2E/out/cur" "$E2E/out/$n"
	fi
}

e2e_trees() {
	local rt series
	trap e2e_leave EXIT
	e2e_leave
	mapfile -t rt < <(e2e_series "$RUNTIME_DIR")
	mapfile -t series < <(e2e_series "$SERIES_DIR")
	e2e_tree pristine "${rt[@]}"
	e2e_tree patched "${series[@]}" "${rt[@]}"
}

# the plugin and its rules copied where a rebuild of build/ cannot change
# them mid-run; their hash is the tag that makes kbuild rebuild mm/
e2e_plugin() {
	local d=$E2E/lockhog
	[ -f "$ROOT/build/lockhog.so" ] || fail "build/lockhog.so missing (make all)"
	mkdir -p "$d"
	cmp -s "$ROOT/build/lockhog.so" "$d/lockhog.so" || cp "$ROOT/build/lockhog.so" "$d/lockhog.so"
	cmp -s "$ROOT/rules/kernel.rules" "$d/kernel.rules" || cp "$ROOT/rules/kernel.rules" "$d/kernel.rules"
	PLUGIN_TAG=$(cat "$d/lockhog.so" "$d/kernel.rules" | sha256sum | cut -c1-16)
	LOCKHOG_CFLAGS="-fplugin=$d/lockhog.so -fplugin-arg-lockhog-rules=$d/kernel.rules"
	LOCKHOG_CFLAGS="$LOCKHOG_CFLAGS -fplugin-arg-lockhog-instrument=all"
	LOCKHOG_CFLAGS="$LOCKHOG_CFLAGS -fplugin-arg-lockhog-diag=none"
	LOCKHOG_CFLAGS="$LOCKHOG_CFLAGS -fplugin-arg-lockhog-tag=$PLUGIN_TAG"
}

# e2e_config OUT EXTRA...: tinyconfig + the fragment + EXTRA (CONFIG_X=y),
# written over OUT/.config only when it changes, so kbuild rebuilds nothing
# it need not
e2e_config() {
	local name=$1 out=$E2E/out/cur src=$2 log=$E2E/out/$1.config.log tmp o
	shift 2
	tmp=$E2E/out/.$name.cfg
	rm -rf "$tmp"
	mkdir -p "$tmp"
	make -C "$src" O="$tmp" tinyconfig >"$log" 2>&1 || fail "$name: make tinyconfig failed (see $log)"
	for o in $(grep -h '^CONFIG_' "$KCONFIG_FRAGMENT") "$@"; do
		case $o in
		*=n) "$src/scripts/config" --file "$tmp/.config" -d "${o%=n}" ;;
		*=y) "$src/scripts/config" --file "$tmp/.config" -e "${o%=y}" ;;
		*=*) "$src/scripts/config" --file "$tmp/.config" --set-val "${o%%=*}" "${o#*=}" ;;
		esac
	done
	make -C "$src" O="$tmp" olddefconfig >>"$log" 2>&1 || fail "$name: olddefconfig failed (see $log)"
	for o in $(grep -h '^CONFIG_.*=y' "$KCONFIG_FRAGMENT") "$@"; do
		case $o in *=y) grep -qx "$o" "$tmp/.config" || fail "$name: $o did not stick (see $tmp/.config)" ;; esac
	done
	mkdir -p "$out"
	cmp -s "$tmp/.config" "$out/.config" || cp "$tmp/.config" "$out/.config"
	rm -rf "$tmp"
}

# e2e_seed NAME TREE FROM: a first build of NAME (no out/NAME yet)
# starts from the objects of FROM's last complete build, and the files the
# mm series changes in src/TREE are made newer than them all
e2e_seed() {
	local f
	[ -d "$E2E/out/$1" ] && return 0
	[ -f "$E2E/out/$3/.lockhog-e2e-built" ] || return 0
	rm -rf "$E2E/out/$1"
	cp -a "$E2E/out/$3" "$E2E/out/$1"
	for f in $(cat $(e2e_series "$SERIES_DIR") | sed -n 's|^+++ b/\([^ \t]*\).*|\1|p' | sort -u); do
		touch "$E2E/src/$2/$f"
	done
	step "kernel $1: starts from $3's objects"
}

# e2e_kernel NAME TREE INSTRUMENT EXTRA...: build/e2e/out/NAME/arch/x86/boot/bzImage
# from src/TREE (INSTRUMENT: 1 passes LOCKHOG_CFLAGS, 0 builds mm/ without
# the plugin); E2E_SEED=FROM: see e2e_seed.  Built in src/cur and out/cur:
# kbuild and objtool's build record absolute paths, so that a kernel
# copied from another one, or from another tree, is up to date where
# the sources are the same.
e2e_kernel() {
	local name=$1 src=$E2E/src/cur inst=$3 out=$E2E/out/cur log=$E2E/out/$1.build.log t0
	e2e_leave
	[ -n "${E2E_SEED:-}" ] && e2e_seed "$name" "$2" "$E2E_SEED"
	e2e_enter "$2" "$name"
	shift 3
	e2e_config "$name" "$src" "$@"
	rm -f "$out/.lockhog-e2e-built"
	t0=$(date +%s)
	if [ "$inst" = 1 ]; then
		make -C "$src" O="$out" -j"$JOBS" LOCKHOG_CFLAGS="$LOCKHOG_CFLAGS" bzImage >"$log" 2>&1
	else
		make -C "$src" O="$out" -j"$JOBS" LOCKHOG_CFLAGS= bzImage >"$log" 2>&1
	fi || fail "$name: kernel build failed: $(grep -m1 -E ': error:|\*\*\*' "$log" || echo "see $log")"
	# the static findings of the same mm/, for the page's predicted-vs-measured join
	if [ "$inst" = 1 ]; then
		"$ROOT/build/lockhog" report --format json --out "$E2E/$name.scan.json" "$out/mm" \
			>>"$log" 2>&1 || fail "$name: lockhog report of its mm/ failed (see $log)"
	fi
	touch "$out/.lockhog-e2e-built"
	e2e_leave
	step "kernel $name: $(grep -c -E '^  (CC|AS) ' "$log") objects compiled in $(($(date +%s) - t0)) s"
}

# the busybox-static initramfs with the workload as /init
e2e_initramfs() {
	local bb d=$E2E/initramfs
	bb=$(command -v busybox) || fail "busybox missing (apt-get install busybox-static)"
	file -L "$bb" | grep -q 'statically linked' || fail "$bb is not static (busybox-static)"
	rm -rf "$d"
	mkdir -p "$d/bin" "$d/proc" "$d/sys" "$d/dev" "$d/tmp"
	cp "$bb" "$d/bin/busybox"
	ln -s busybox "$d/bin/sh"
	cp "$ROOT/tests/e2e/guest/init.sh" "$d/init"
	cp "$ROOT/tests/e2e/guest/work.sh" "$d/bin/work.sh"
	chmod +x "$d/init" "$d/bin/work.sh"
	(cd "$d" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -9n) >"$E2E/initramfs.cpio.gz.tmp"
	mv "$E2E/initramfs.cpio.gz.tmp" "$E2E/initramfs.cpio.gz"
}

# e2e_boot NAME [ROUNDS]: boots it, the serial console into build/e2e/NAME.log,
# the JSON between the markers into build/e2e/NAME.json
# (E2E_TAG=T: build/e2e/T-NAME.log and .json, for bench, which must not
# overwrite make e2e's)
e2e_boot() {
	local name=$1 rounds=${2:-${E2E_ROUNDS:-}} rc
	local tag=${E2E_TAG:+$E2E_TAG-}
	local log=$E2E/$tag$1.log json=$E2E/$tag$1.json
	rm -f "$log" "$json"
	rc=0
	timeout -k 10 "$E2E_TIMEOUT" qemu-system-x86_64 -accel tcg -smp 2,sockets=2,cores=1 -m "$E2E_MEM" \
		-display none -monitor none -serial "file:$log" -no-reboot \
		-kernel "$E2E/out/$name/arch/x86/boot/bzImage" -initrd "$E2E/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 loglevel=4 tsc_early_khz=$E2E_TSC_KHZ tsc=reliable lockhog.rounds=${rounds:-0}" \
		</dev/null >"$E2E/$tag$name.qemu.log" 2>&1 || rc=$?
	[ $rc = 124 ] || [ $rc = 137 ] &&
		fail "$name: the guest hung: killed after $E2E_TIMEOUT s (see $log)"
	[ $rc = 0 ] || fail "$name: qemu exited $rc (see $E2E/$tag$name.qemu.log)"
	grep -q '^LOCKHOG-DONE' "$log" || fail "$name: the guest stopped before the end of the workload (see $log)"
	grep -q '^LOCKHOG-CPUS 2' "$log" || fail "$name: the guest does not run on 2 CPUs (see $log)"
	sed -n '/^LOCKHOG-JSON-BEGIN/,/^LOCKHOG-JSON-END/p' "$log" | sed '1d;$d' | tr -d '\r' |
		base64 -d >"$json.tmp" 2>/dev/null ||
		fail "$name: the JSON on the console does not decode (see $log)"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$json.tmp" 2>/dev/null ||
		fail "$name: the runtime's JSON does not parse (see $json.tmp)"
	mv "$json.tmp" "$json"
	step "boot $name: workload $(sed -n 's/^LOCKHOG-WORKLOAD-NS \([0-9]*\).*/\1/p' "$log" | tr -d '\r' |
		awk '{ printf "%.1f s", $1 / 1e9 }')"
}
