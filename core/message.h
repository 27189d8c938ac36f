/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOG_MESSAGE_H
#define HOG_MESSAGE_H

#include "analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "-Wlockhog-call" and friends. */
const char *hog_finding_option(const struct hog_finding *f);
/* One-line diagnostic text for path p (NULL: the primary path); malloc'ed. */
char *hog_finding_message(const struct hog_finding *f, const struct hog_path *p);
/* "refill_stock -> __refill_stock -> drain_stock -> page_counter_uncharge" */
char *hog_path_text(const struct hog_finding *f, const struct hog_path *p);

#ifdef __cplusplus
}
#endif
#endif
