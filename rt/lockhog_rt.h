/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the instrumenting GCC plugin and a lockhog
 * runtime (docs/runtime.md).  The kernel patch carries the same layout
 * in include/linux/lockhog.h; tests/runtime checks the two agree.
 */
#ifndef LOCKHOG_RT_H
#define LOCKHOG_RT_H

#define LOCKHOG_K_ACQUIRE	1
#define LOCKHOG_K_RELEASE	2
#define LOCKHOG_K_CALL		3
#define LOCKHOG_K_LOOP		4
#define LOCKHOG_K_ATOMIC	5

#define LOCKHOG_F_TRY		1	/* a trylock: taken when ret != 0 */
#define LOCKHOG_F_TRYZERO	2	/* a trylock: taken when ret == 0 */
#define LOCKHOG_F_READ		4
#define LOCKHOG_F_IRQ		8

#define LOCKHOG_DEPTH		16	/* open sections per CPU (thread) */
#define LOCKHOG_HOLD_INNER	4	/* inner sites with per-hold figures */
#define LOCKHOG_HIST		32

struct lockhog_site {
	unsigned short kind;
	unsigned short flags;
	unsigned int line;
	const char *file;
	const char *function;
	const char *name;
	const char *lock_kind;
	const char *fingerprint;
};

#ifdef __cplusplus
extern "C" {
#endif
void __lockhog_acquire(struct lockhog_site *s, const void *lock);
void __lockhog_tryacquire(struct lockhog_site *s, const void *lock, long ret);
void __lockhog_release(struct lockhog_site *s, const void *lock);
unsigned long long __lockhog_call_begin(struct lockhog_site *s);
void __lockhog_call_end(struct lockhog_site *s, unsigned long long token);
void __lockhog_loop(struct lockhog_site *s, unsigned long iterations);
void __lockhog_atomic(struct lockhog_site *s, const void *addr);
#ifdef __cplusplus
}
#endif

#endif
