# SPDX-License-Identifier: GPL-2.0
# Sourced by the suites that check the plugin leaves the code alone.
#
#   same_object PLAIN PLUGIN DIR [absent]
#	0 when the object built with the plugin (PLUGIN) carries a
#	.note.lockhog section (if it defines a function) and is, that
#	section removed, the same object as the one built without it
#	(PLAIN): the same `objdump -d` and the same bytes once both go
#	through `objcopy -R .note.lockhog`.
#	Otherwise prints the first difference and returns 1.  DIR is
#	scratch space of the caller's.  "absent": PLUGIN need not carry the
#	section.

same_object() {
	local a=$1 b=$2 d=$3 absent=${4:-}

	mkdir -p "$d/plain" "$d/plugin"
	# a unit that defines no function has nothing to carry
	if [ -z "$absent" ] && ! readelf -S -W "$b" | grep -q ' \.note\.lockhog ' &&
		nm --defined-only "$a" | grep -q ' [Tt] '; then
		echo "no .note.lockhog section in the plugin's object"
		return 1
	fi
	# the same name in both, as objdump prints it
	cp "$a" "$d/plain/x.o"
	cp "$b" "$d/plugin/x.o"
	(cd "$d/plain" && objdump -d x.o) >"$d/plain.dis"
	(cd "$d/plugin" && objdump -d x.o) >"$d/plugin.dis"
	if ! cmp -s "$d/plain.dis" "$d/plugin.dis"; then
		echo "objdump -d differs: $(diff "$d/plain.dis" "$d/plugin.dis" | grep -m1 '^[<>]')"
		return 1
	fi
	objcopy -R .note.lockhog "$a" "$d/plain.o"
	objcopy -R .note.lockhog "$b" "$d/plugin.o"
	if ! cmp -s "$d/plain.o" "$d/plugin.o"; then
		echo "sections other than .note.lockhog differ: $(cmp "$d/plain.o" "$d/plugin.o" | head -1)"
		return 1
	fi
}
