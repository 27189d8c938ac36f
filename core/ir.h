/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The intermediate form every frontend lowers to: one function is a CFG
 * of basic blocks holding events.  It knows nothing about locks; the
 * rules catalogue and the callee summaries give the events meaning.
 *
 * Values name what an argument is, as far as the frontend can tell
 * without the rules: a constant, an SSA-like variable the core may have
 * bound (say, the result of spinlock_check()), or an address expression.
 *
 * Address expressions are interned strings (see core/expr.c):
 *
 *   root:  $N        value of parameter N
 *          $R        the function's return value (summaries only)
 *          @NAME     address of the global NAME
 *          %NAME     value of the local NAME, origin unknown
 *          vN        value of variable N, which the core may know
 *                    (the result of a call whose summary returns an address)
 *   steps: /T.F      address of field F of the struct T at the address so far
 *          ^         the pointer loaded from the address so far
 *          []        some element of the array at the address so far
 *          #         the current CPU's instance (this_cpu_ptr and friends)
 *
 * so &zone->lock in a function whose first parameter is zone is
 * "$0/zone.lock", and this_cpu_ptr(&memcg_stock.stock_lock) is
 * "@memcg_stock/memcg_stock_pcp.stock_lock#".
 */
#ifndef HOG_IR_H
#define HOG_IR_H

#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hog_val_kind {
	HV_UNKNOWN,
	HV_CONST,
	HV_VAR,
	HV_ADDR,
};

struct hog_val {
	enum hog_val_kind kind;
	int var;		/* HV_VAR */
	long long cst;		/* HV_CONST */
	const char *addr;	/* HV_ADDR, interned */
};

enum hog_ev_kind {
	HE_CALL,	/* direct call to callee */
	HE_ICALL,	/* call through a pointer: callee is NULL */
	HE_ATOMIC,	/* atomic read-modify-write on args[0] (inline asm, builtin) */
	HE_ASSIGN,	/* dst = args[0]; callee NULL: copy, "!": !args[0], "!!": !!args[0],
			 * "&": args[0] & args[1] */
	HE_RETURN,	/* return args[0] (nargs may be 0) */
	HE_STORE,	/* *args[0] = args[1]: a lock pointer stored in memory */
	HE_HELD,	/* lockdep_assert_held(args[0]): held from here; callee: its lock type */
};

struct hog_event {
	enum hog_ev_kind kind;
	int line, col;
	const char *callee;	/* interned; HE_CALL only */
	int dst;		/* variable receiving the result, -1 if none */
	int nargs;
	struct hog_val *args;
};

/*
 * A two-way branch on a variable: succ[0] is taken when the condition
 * holds.  HC_NEZ: var != 0 (or != NULL); HC_EQZ: var == 0.
 */
enum hog_cond {
	HC_NONE,
	HC_NEZ,
	HC_EQZ,
	/*
	 * A per-CPU counter tested against a threshold: the successor
	 * named is taken once every so many updates (memcg_rstat_updated(),
	 * vmstat).  No variable.
	 */
	HC_BATCH0,	/* succ[0] is the rare, over-the-threshold way */
	HC_BATCH1,	/* succ[1] is */
	/* a signed integer's sign: succ[0] when var > 0 (GTZ), var <= 0 (LEZ) */
	HC_GTZ,
	HC_LEZ,
	/*
	 * succ[0] when cond_val <= var <= cond_hi, constants (if (mode ==
	 * M_FREE) after the branches that set mode and took a lock on some
	 * of them; GCC folds "mode == M_PARTIAL || mode == M_FULL" into one
	 * range test).  A test against zero alone is HC_EQZ.
	 */
	HC_EQK,
};

struct hog_phi {
	int dst;
	int n;
	int *pred;		/* block ids */
	struct hog_val *val;	/* value arriving from pred[i] */
};

struct hog_block {
	int nev;
	struct hog_event *ev;
	int nsucc;
	int *succ;
	enum hog_cond cond;
	int cond_var;
	long long cond_val, cond_hi;	/* HC_EQK */
	int nphi;
	struct hog_phi *phi;
	/* derived by hog_func_finish() */
	int npred;
	int *pred;
};

enum hog_loop_shape {
	HL_OTHER,
	HL_COUNTED,	/* integer induction variable, exit on a compare */
	HL_PTRCHASE,	/* p = p->next style walk: lists, trees */
	HL_PARENT_WALK,	/* p = p->parent: walks up a hierarchy */
	HL_RETRY,	/* nothing carried round: retried until a call succeeds */
	HL_SCALES,	/* its exit tests a container that grows with the machine (rules: scales) */
};

struct hog_loop {
	int header;
	int line, col;
	long long bound;	/* most latch executions, -1 when unknown */
	/*
	 * It runs at most as many times as parameter N's value says
	 * ("for (i = 0; i < objects; i++)"), -1 none: callers passing a
	 * small constant make it a short loop.
	 */
	int bound_param;
	/*
	 * -1: that many; else at most 1 << (the parameter - bound_shift)
	 * ("i < (1 << order)" is 0).
	 */
	int bound_shift;
	enum hog_loop_shape shape;
	int nblocks;
	int *blocks;		/* header included */
};

/*
 * What a function's annotations say about a lock (sparse's __must_hold,
 * __acquires, __releases, __cond_acquires, or clang's capability
 * attributes): held on entry and exit, taken, given up, taken when the
 * function returns non-zero.
 */
enum hog_annot_kind {
	HA_MUST_HOLD,
	HA_ACQUIRES,
	HA_RELEASES,
	HA_COND_ACQUIRES,
};

struct hog_annot {
	enum hog_annot_kind kind;
	int line, col;
	const char *type;	/* interned: the lock's type as the rules name it */
	const char *expr;	/* interned address expression of the lock */
};

/*
 * What the frontend knows of a function beyond its body, in the F
 * record's static word (docs/ir.md): its address is taken somewhere in
 * its unit (code or a static initializer, .store = f), so it may have
 * callers nobody sees; it is marked cold (__cold, and so __init and
 * __exit): the programmer says it rarely runs; every use of its address
 * is an argument of a direct call (on_each_cpu(f, ...)), none a store,
 * an initializer or another expression (HOG_FN_ARGS, with HOG_FN_ADDR).
 */
#define HOG_FN_ADDR	1u
#define HOG_FN_COLD	2u
#define HOG_FN_ARGS	4u

struct hog_func {
	const char *name;	/* interned */
	const char *file;	/* interned, where the body is */
	int line;
	int is_static;
	unsigned flags;		/* HOG_FN_*: what the frontend knows of its uses */
	int nparams;
	const char **params;	/* names, "" when unnamed */
	int nblocks;		/* block 0 is the entry */
	struct hog_block *blocks;
	int nloops;
	struct hog_loop *loops;
	const char *tu;		/* translation unit it came from */
	int nvars;		/* variables are 0 .. nvars-1 */
	const char **vnames;	/* source names of variables, NULL or "" if none */
	int nvnames;		/* entries in vnames */
	/*
	 * The most variable N can be, from the frontend's caps (rules:
	 * bound, constants and the arithmetic between them), -1 when
	 * unknown; NULL when no variable has one.  "C var max" (docs/ir.md).
	 */
	long long *vcaps;
	int nvcaps;		/* entries in vcaps */
	int nannots;
	struct hog_annot *annots;
};

/*
 * A function a static initializer stores in a field: "static struct
 * kobj_attribute x = __ATTR(..., x_store)" is kobj_attribute.store
 * holding x_store.  A registration the call graph does not show (G
 * record, docs/ir.md).
 */
struct hog_init_reg {
	const char *var;	/* the variable initialized, interned */
	int line;		/* of its definition */
	const char *cls;	/* "STRUCT.FIELD", as hog_expr_class() spells a store's */
	const char *func;	/* the function stored */
};

/*
 * A module is what one object file carries: the functions of one
 * translation unit, all allocated in one arena.
 */
struct hog_module {
	struct hog_arena arena;
	struct hog_strtab *strs;
	int own_strs;
	const char *tu;
	int nfuncs;
	struct hog_func **funcs;
	int cap;
	int nregs, cregs;
	struct hog_init_reg *regs;
};

struct hog_module *hog_module_new(struct hog_strtab *strs, const char *tu);
void hog_module_free(struct hog_module *m);
void hog_module_add_reg(struct hog_module *m, const char *var, int line, const char *cls,
			const char *func);

/* Builder used by frontends. */
struct hog_func *hog_func_new(struct hog_module *m, const char *name,
			      const char *file, int line, int is_static,
			      int nparams, const char **params);
void hog_func_set_blocks(struct hog_module *m, struct hog_func *f, int nblocks);
struct hog_event *hog_block_add_event(struct hog_module *m, struct hog_block *b,
				      enum hog_ev_kind kind, int line, int col,
				      const char *callee, int dst, int nargs);
void hog_block_set_succ(struct hog_module *m, struct hog_block *b, int nsucc,
			const int *succ);
struct hog_phi *hog_block_add_phi(struct hog_module *m, struct hog_block *b,
				  int dst, int n);
struct hog_loop *hog_func_add_loop(struct hog_module *m, struct hog_func *f,
				   int header, int line, int col, long long bound,
				   enum hog_loop_shape shape, int nblocks,
				   const int *blocks);
void hog_func_set_vcap(struct hog_module *m, struct hog_func *f, int var, long long max);
/* The cap of variable var, -1 when none is known. */
long long hog_func_vcap(const struct hog_func *f, int var);
void hog_func_set_vname(struct hog_module *m, struct hog_func *f, int var,
			const char *name);
void hog_func_add_annot(struct hog_module *m, struct hog_func *f, enum hog_annot_kind kind,
			int line, int col, const char *type, const char *expr);
/* Derives predecessors and checks the shape; returns 0 or -1 with *err set. */
/* Is block b in loop l? */
int hog_loop_has(const struct hog_loop *l, int b);
int hog_func_finish(struct hog_module *m, struct hog_func *f, const char **err);

/*
 * Text form, the payload of the .note.lockhog section (docs/ir.md).
 * hog_module_write appends one payload, NUL-terminated, to buf;
 * hog_module_read parses one payload and returns NULL with a message in
 * *err ("line N: ...") on malformed input.  The version in the magic
 * changes with every change of the format: an object written by another
 * version is refused with a "rebuild" message, never half-read.
 */
#define HOG_IR_VERSION 3
/* a block with more successors than this is refused, never cut short */
#define HOG_MAX_SUCC 4096
#define HOG_STR_(x) #x
#define HOG_STR(x) HOG_STR_(x)
#define HOG_IR_MAGIC "lockhog-ir 3"
#define HOG_IR_SECTION ".note.lockhog"
/* the section of lockhog-ir 1, recognised only to say "rebuild" */
#define HOG_IR_OLD_SECTION ".lockhog"
void hog_module_write(const struct hog_module *m, struct hog_buf *buf);
struct hog_module *hog_module_read(struct hog_strtab *strs, const char *text,
				   size_t len, char **err);
/*
 * ld -r (modules, vmlinux.o) concatenates the sections of its inputs, so
 * one section holds any number of NUL-terminated payloads with zero
 * padding between them.  Sets *pl and *pllen to the next payload at or after
 * *off and advances *off; returns 0 at the end of the section.
 */
int hog_section_next(const char *data, size_t len, size_t *off,
		     const char **pl, size_t *pllen);

#ifdef __cplusplus
}
#endif
#endif
