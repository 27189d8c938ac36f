/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GCC headers the plugin needs, in the order GCC wants them.  Only
 * GCC 12 is supported; a newer GCC fails here at build time rather than
 * miscompiling somewhere inside the lowering.
 */
#ifndef LOCKHOG_GCC_COMPAT_H
#define LOCKHOG_GCC_COMPAT_H

#include "gcc-plugin.h"
#include "bversion.h"

#if BUILDING_GCC_MAJOR != 12
#error "lockhog's plugin is written against GCC 12 internals"
#endif

#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "context.h"
#include "ssa.h"
#include "cfgloop.h"
#include "gimple-iterator.h"
#include "gimple-pretty-print.h"
#include "tree-cfg.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-scalar-evolution.h"
#include "stringpool.h"
#include "attribs.h"
#include "cpplib.h"
#include "diagnostic.h"
#include "diagnostic-core.h"
#include "output.h"
#include "langhooks.h"
#include "toplev.h"
#include "builtins.h"
#include "cgraph.h"

#endif
