/* SPDX-License-Identifier: GPL-2.0 */
/* instrument=: probes for a lockhog runtime (docs/runtime.md). */
#ifndef LOCKHOG_INSTRUMENT_H
#define LOCKHOG_INSTRUMENT_H

#include "../core/ir.h"
#include "../core/rules.h"

/*
 * arg is "all", a lockhog scan JSON report, or a list of functions.
 * Returns -1 with err set when it cannot be read.
 */
int lh_instrument_init(const char *arg, struct hog_strtab *strs,
		       const struct hog_rules *rules, char *err, size_t errlen);
int lh_instrument_on(void);
/* Probes cfun; returns the TODO flags the pass must hand back. */
unsigned int lh_instrument_function(struct hog_module *mod);

#endif
