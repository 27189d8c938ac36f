#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A lock holder nothing in this build calls is a note that says why
# (core/unbuilt.c): in a small tree of our own, pool/core.c's holders
# are called from units kbuild did not build (no object), or from
# places the IR cannot see: assembly, an export, a header's inline, a
# unit outside the directory read, a unit that another includes, a name
# the definition does not spell.  Those stay findings.  Both frontends;
# a report of objects named one by one knows no tree and demotes
# nothing.
set -u
cd "$(dirname "$0")/../.."
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
CHECKER=${CHECKER:-$PWD/build/lockhog-check}
. tests/tap.sh
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export LOCKHOG_RULES=$PWD/rules/kernel.rules
INC=$PWD/tests/fixtures/include
echo "1..18"

tree() {	# tree DIR: the sources, nothing built
	mkdir -p "$1/pool" "$1/include/linux" "$1/drivers"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$1/Makefile"
	cat >"$1/include/linux/pool.h" <<'EOF'
#include <kstub.h>
#define EXPORT_SYMBOL(sym) extern typeof(sym) sym
#define DEFINE_POOL_FN(name) void pool_##name(void)
#define MY_EXPORT(sym) EXPORT_SYMBOL(sym)
struct pool;
int pool_split(struct pool *p, int n);
extern void pool_sleepy(void);
void pool_inline_used(void);
static inline void pool_kick(void)
{
	pool_inline_used();
}
EOF
	cat >"$1/pool/core.c" <<'EOF'
#include <linux/pool.h>

static DEFINE_SPINLOCK(pool_lock);
extern void pool_work(int i);

/* pool_split() splits; pool_mentioned() only in comments elsewhere */
int pool_split(struct pool *p, int n)
{
	int i;

	spin_lock_irq(&pool_lock);
	for (i = 0; i < n; i++)
		pool_work(i);
	spin_unlock_irq(&pool_lock);
	return 0;
}

#define POOL_SLEEP(name)		\
	spin_lock(&pool_lock);		\
	msleep(1);			\
	spin_unlock(&pool_lock)

void pool_sleepy(void) { POOL_SLEEP(sleepy); }
void pool_exported(void) { POOL_SLEEP(exported); }
EXPORT_SYMBOL(pool_exported);
void pool_from_asm(void) { POOL_SLEEP(from_asm); }
void pool_inline_used(void) { POOL_SLEEP(inline_used); }
void pool_elsewhere(void) { POOL_SLEEP(elsewhere); }
void pool_included(void) { POOL_SLEEP(included); }
void pool_mentioned(void) { POOL_SLEEP(mentioned); }
DEFINE_POOL_FN(macro_made) { POOL_SLEEP(macro_made); }
void pool_wrapped(void) { POOL_SLEEP(wrapped); }
MY_EXPORT(pool_wrapped);
void pool_aliased(void) { POOL_SLEEP(aliased); }
void pool_alias(void) __attribute__((alias("pool_aliased")));
void pool_after_endif(void) { POOL_SLEEP(after_endif); }
void pool_asm_quote(void) { POOL_SLEEP(asm_quote); }
EOF
	# never built here: as mm/page_isolation.c without MEMORY_ISOLATION
	cat >"$1/pool/isolate.c" <<'EOF'
#include <linux/pool.h>

void pool_isolate(struct pool *p)
{
	pool_split(p, 8);
	pool_sleepy();
	pool_mentioned();
	/* a string that opens no comment: "/*" */
	pool_sleepy();
}
EOF
	# an apostrophe in an assembler comment is no character literal
	printf ".text\n.globl pool_entry\npool_entry:\n# we'll call on\n\tcall pool_from_asm\n\tcall pool_asm_quote\n\tret\n" \
		>"$1/pool/entry.S"
	cat >"$1/pool/table.c" <<'EOF'
#include <linux/pool.h>
void pool_included(void);
/* a pool_mentioned() remark in a built unit's comment */
const char *pool_msg = "call pool_asm_named";
void (*pool_table[])(void) = { pool_included };
EOF
	printf '#include "table.c"\nint pool_big;\n' >"$1/pool/big.c"
	# a call after a directive is no declaration
	printf '#include <linux/pool.h>\nvoid drv(int n)\n{\n#ifdef CONFIG_X\n\tn++;\n#endif\n\tpool_after_endif();\n\tpool_elsewhere();\n\tpool_macro_made();\n}\n' \
		>"$1/drivers/drv.c"
}

build() {	# build DIR gcc|clang: the units kbuild would build, no more
	local d=$1 fe=$2 u

	(cd "$d" &&
	 gcc -c pool/entry.S -o pool/entry.o &&
	 for u in core big; do
		if [ "$fe" = gcc ]; then
			gcc -O2 -c -I"$INC" -Iinclude -fplugin="$ROOT/build/lockhog.so" \
				-fplugin-arg-lockhog-rules="$LOCKHOG_RULES" pool/$u.c -o pool/$u.o
		else
			gcc -O2 -c -I"$INC" -Iinclude pool/$u.c -o pool/$u.o &&
			"$CHECKER" --rules="$LOCKHOG_RULES" --diag=none \
				--sidecar=pool/.$u.o.lockhog -I"$INC" -Iinclude pool/$u.c
		fi || return 1
	 done &&
	 # as kbuild's fixdep writes it: the unit and what it includes
	 printf 'deps_pool/big.o := \\\n  pool/big.c \\\n  pool/table.c \\\n' >pool/.big.o.cmd &&
	 # the directory finished: what kbuild links last
	 ar rcs pool/built-in.a pool/core.o pool/big.o pool/entry.o
	) >"$d.build.log" 2>&1
}

ROOT=$PWD
for fe in gcc clang; do
	D=$T/$fe
	tree "$D"
	if ! build "$D" $fe; then
		notok "$fe: the tree builds" "$D.build.log"
		for i in $(seq 8); do notok "$fe: skipped"; done
		continue
	fi
	ok "$fe: the tree builds"
	(cd "$D" && "$LOCKHOG" report pool) >"$T/$fe.txt" 2>&1
	(cd "$D" && "$LOCKHOG" report --all pool) >"$T/$fe.all" 2>&1
	want="pool_after_endif pool_aliased pool_asm_quote pool_elsewhere pool_exported pool_from_asm pool_included pool_inline_used pool_macro_made pool_wrapped "
	got=$(grep -A3 'error:\|warning:' "$T/$fe.txt" | grep -o 'chain: pool_[a-z_]*' | sed 's/chain: //' |
		sort -u | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		ok "$fe: the holders something may call stay findings"
	else
		notok "$fe: want '$want', got '$got'" "$T/$fe.txt"
	fi
	for h in pool_split pool_sleepy pool_mentioned; do
		if grep -q "chain: $h\( \|\$\)" "$T/$fe.txt"; then
			notok "$fe: $h is still a finding" "$T/$fe.txt"
		else
			ok "$fe: $h, called only from an unbuilt unit, is no finding"
		fi
	done
	if grep -q "note: .*its holder pool_split() has no caller in this build: the tree calls it only from pool/isolate.c, which this configuration does not build" "$T/$fe.all"; then
		ok "$fe: --all says why pool_split() is a note"
	else
		notok "$fe: --all gives no reason for pool_split()" "$T/$fe.all"
	fi
	if grep -q "its holder pool_sleepy() has no caller in this build" "$T/$fe.all"; then
		ok "$fe: a sleep no caller reaches is a note too"
	else
		notok "$fe: pool_sleepy() not demoted with its reason" "$T/$fe.all"
	fi
	# objects named one by one: no tree, nothing demoted
	obj=pool/core.o
	[ $fe = clang ] && obj=pool/.core.o.lockhog
	(cd "$D" && "$LOCKHOG" report "$obj") >"$T/$fe.obj" 2>&1
	if grep -q "chain: pool_split\$" "$T/$fe.obj" && grep -q "chain: pool_sleepy -> " "$T/$fe.obj"; then
		ok "$fe: a report of one object demotes nothing"
	else
		notok "$fe: a report of one object demoted a holder" "$T/$fe.obj"
	fi
	# a directory kbuild did not finish (no built-in.a): a missing object
	# may be one still to build, so nothing is demoted
	rm -f "$D/pool/built-in.a"
	(cd "$D" && "$LOCKHOG" report pool) >"$T/$fe.unfinished" 2>&1
	if grep -q "chain: pool_split\$" "$T/$fe.unfinished"; then
		ok "$fe: in a directory kbuild did not finish, nothing is demoted"
	else
		notok "$fe: a holder demoted in an unfinished build" "$T/$fe.unfinished"
	fi
done
