/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockhog-check: the libclang frontend.  libclang has no CFG, so cfg.c
 * builds one (blocks, edges, SSA variables by Braun et al.'s on-the-fly
 * construction, natural loops) and lower.c walks the AST into it; the
 * result is the same IR the GCC plugin writes (docs/ir.md).
 */
#ifndef LC_H
#define LC_H

#include <clang-c/Index.h>
#include "../core/ir.h"
#include "../core/rules.h"

/* arguments written per call, as the GCC frontend writes them */
#define LC_MAX_ARGS 12

struct lc_ev {
	enum hog_ev_kind kind;
	int line, col;
	const char *callee;
	int dst;
	int nargs;
	struct hog_val a[LC_MAX_ARGS];
	/*
	 * A store to a field (lc_field_store()): 1 of a constant, 2 of
	 * anything else, kept by lc_finish() only as the plugin keeps it.
	 */
	int fstore;
};

struct lc_phi {
	int dst;
	int local;		/* the local it merges, -1 for a value phi */
	int n;
	int *pred;
	struct hog_val *val;
	int dead;		/* trivial: replaced by repl */
	struct hog_val repl;
	int capping;		/* its cap being asked (cfg.c, phi_cap()) */
};

/* a comparison ending a block, for loop bounds: succ[0] when l OP r holds */
struct lc_cmp {
	int op;			/* CXBinaryOperator_LT ... NE, 0 when none */
	struct hog_val l, r;
};

struct lc_blk {
	struct lc_ev *ev;
	int nev, cap;
	int *succ, nsucc, csucc;
	int *pred, npred, cpred;
	enum hog_cond cond;
	int cond_var;
	long long cond_val, cond_hi;	/* HC_EQK */
	struct lc_cmp cmp;
	int *phis, nphi, cphi;	/* indices into fn->phi */
	struct hog_val *def;	/* per local */
	char *has;
	int sealed;
	int *inc, ninc, cinc;	/* incomplete phis */
	int line, col;		/* a loop test here: where it is */
};

/* what defines a variable */
enum lc_vkind { VK_NONE, VK_CALL, VK_PHI, VK_ADD, VK_ASM, VK_LOAD, VK_PARAM };

struct lc_var {
	enum lc_vkind kind;
	const char *callee;	/* VK_CALL */
	struct hog_val arg0;	/* VK_CALL: first argument; VK_ADD: the other operand */
	long long step;		/* VK_ADD */
	int phi;		/* VK_PHI */
	int percpu;		/* read from this CPU's counters */
	int ptr;		/* a pointer */
	const char *load;	/* VK_LOAD: the address loaded from */
	int sign;		/* a sign step's result, in its own width: 1 "neg", 2 "u>>" */
	/*
	 * The integer operation that made it (a CXBinaryOperator kind, 0
	 * none) and its operands: the caps of bounds (cfg.c, value_cap()).
	 */
	int cop;
	struct hog_val ca, cb;
	int uadd;		/* "x += n" with n of an unsigned type (cfg.c, min_step_up()) */
	int small;		/* loaded as a type of 8 bits or fewer: at most 255 (cfg.c, value_cap()) */
	int width;		/* VK_LOAD: the bytes read (lower.c, narrowed_test()) */
};

struct lc_local {
	CXCursor decl;
	const char *name;
	int memory;		/* address taken or not a scalar: not SSA */
	int ptr;
	int param;		/* parameter index, or -1 */
	int test_var;		/* the variable its tests are on, -1 until tested */
	int percpu;		/* memory: a per-CPU value was stored to it by name */
};

struct lc_target {
	int brk, cont;		/* blocks, -1 if none */
	int sw;			/* switch block, -1 for a loop */
	int has_default;
	int konst;		/* switch (sizeof(x)): only the case taken is reached */
	long long kval;
	int kmatch;		/* some case is kval: default is not reached */
	/*
	 * switch (mode) on an integer variable: the plugin's chain of
	 * HC_EQK tests, one per case label in source order.  test[i] tests
	 * case[i]; the last one's other way is dflt, the default's landing.
	 * ncase 0: no chain (the old fan of edges).
	 */
	int swvar, ncase, dflt;
	CXCursor *cases;
	int *test;
	char *wired;
	int brk_cln, cont_cln;	/* cleanup variables in scope at brk, cont */
};

/* a variable with __attribute__((cleanup(fn))) in scope (cleanup.c) */
struct lc_cleanup {
	const char *fn;		/* interned */
	const char *addr;	/* the variable's address: fn(&var) */
	int line, col;		/* where it is declared: where GCC puts the call */
	unsigned int from, to;	/* its scope, file offsets: a goto's label inside stays */
};

struct lc_label {
	CXCursor c;
	int blk;
};

/* a lockdep_assert_held() in the function: where its macro is, and its lock */
struct lc_assert {
	unsigned off;		/* file offset of the macro's name */
	int line, col;
	const char *expr, *type;
	int done;		/* emitted, at the first statement it expands to */
};

/* __must_hold(x) and the like, for the function's IR header */
struct lc_annot {
	int kind;		/* enum hog_annot_kind */
	int line, col;
	const char *expr, *type;
};

struct lc_fn {
	struct hog_module *m;
	const struct hog_rules *rules;
	CXTranslationUnit tu;
	CXCursor decl;
	const char *file;
	struct lc_blk *b;
	int nb, cb;
	int cur;		/* current block, -1 after a jump */
	/*
	 * The block code starts in while nothing has been written to memory
	 * nor called (an addressable parameter still holds what the caller
	 * passed: the plugin's entry_param_load()); -1 after.
	 */
	int clean;
	struct lc_phi *phi;
	int nphi, cphi;
	struct lc_var *var;
	int nvar, cvar;
	const char **vname;
	struct lc_local *loc;
	int nloc, cloc;
	struct lc_target *tgt;
	int ntgt, ctgt;
	struct lc_label *lab;
	int nlab, clab;
	int line, col;		/* last location */
	int ret;		/* the one block every return goes to, as in GCC; -1 */
	int nret, cret;
	int *ret_pred;		/* the blocks that return, and what */
	struct hog_val *ret_val;
	int ret_has_val;
	struct hog_vec called;	/* CXCursor * of functions referenced */
	struct lc_cleanup *cln;	/* cleanup variables in scope, outermost first */
	int ncln, ccln;
	CXCursor scope;		/* the innermost block or for: a declaration's scope */
	struct lc_assert *assert;
	int nassert, cassert;
	struct lc_annot *annot;
	int nannot, cannot;
	/*
	 * Tests of a field read ("load" events, lc_tie_loads()), and the
	 * fields written, handed out by address or read volatile: those
	 * are not one value from test to test.
	 */
	struct lc_tie { int blk, ev; const char *addr; } *tie;
	int ntie, ctie;
	const char **moved;
	int nmoved, cmoved;
	/*
	 * Fields a constant is stored to, and what else writes memory
	 * (a memset(), a union's bytes): lc_field_store().
	 */
	const char **cstore;
	int ncstore, ccstore;
	const char **xwrite;
	int nxwrite, cxwrite;
};

/* cfg.c */
int lc_new_block(struct lc_fn *F);
void lc_edge(struct lc_fn *F, int from, int to);
void lc_seal(struct lc_fn *F, int b);
int lc_new_var(struct lc_fn *F, enum lc_vkind kind);
struct hog_val lc_varval(int v);
struct hog_val lc_read(struct lc_fn *F, int b, int local);
void lc_write(struct lc_fn *F, int b, int local, struct hog_val v);
int lc_value_phi(struct lc_fn *F, int b, int n, const int *pred, const struct hog_val *val);
struct lc_ev *lc_emit(struct lc_fn *F, enum hog_ev_kind kind, const char *callee,
		      int dst, int nargs);
/* the current block, made (unreachable) if control cannot reach here */
int lc_here(struct lc_fn *F);
const char *lc_addr_of(struct lc_fn *F, struct hog_val v);
/* a field the function writes, hands out or reads volatile: no "load" of it */
void lc_moved(struct lc_fn *F, const char *a);
void lc_tie(struct lc_fn *F, int blk, int ev, const char *addr);
void lc_tie_loads(struct lc_fn *F);
/* a store to field a of value v (fstore 1 for a constant), or something else writing it */
void lc_field_store(struct lc_fn *F, const char *a, struct hog_val v, int is_const);
void lc_other_write(struct lc_fn *F, const char *a);
/* the variable a test of address a is on */
int lc_test_var(struct lc_fn *F, const char *a);
const char *lc_cat(struct lc_fn *F, const char *a, const char *b);
struct hog_func *lc_finish(struct lc_fn *F, const char *name, int is_static, int line,
			   const char **err);
void lc_fn_free(struct lc_fn *F);

/* cleanup.c */
int lc_has_cleanup(CXCursor var);
void lc_cleanup_decl(struct lc_fn *F, CXCursor var, CXCursor scope);
void lc_cleanup_run(struct lc_fn *F, int n);
void lc_cleanup_pop(struct lc_fn *F, int n);
void lc_cleanup_goto(struct lc_fn *F, CXCursor lab);
/* annot.c: __must_hold() and friends, lockdep_assert_held() */
void lc_annots_scan(struct lc_fn *F, CXCursor fn);
void lc_assert_at(struct lc_fn *F, CXCursor c);
void lc_annots_finish(struct lc_fn *F, struct hog_func *f);

/* uses.c: names (interned) of the unit's functions whose address is taken; cold ones */
/*
 * The line in the main file where c is expanded, 0 if it is not there:
 * a name pasted by a macro is spelt in clang's scratch space.
 */
unsigned lc_in_main_file(CXTranslationUnit tu, CXCursor c);
/* Defined in the main file or in a .c file it includes. */
int lc_in_unit(CXTranslationUnit tu, CXCursor c);
/* lc_uses_scan()'s map: address taken, or taken only as call arguments */
#define LC_ADDR		((void *)1)
#define LC_ADDR_ARGS	((void *)2)
struct hog_map *lc_uses_scan(CXTranslationUnit tu, struct hog_strtab *strs);
int lc_is_cold(CXTranslationUnit tu, CXCursor fn);
/* G records: the main file's static initializers storing a function in a field the rules name */
void lc_inits_scan(CXTranslationUnit tu, struct hog_module *m, const struct hog_rules *rules);
void lc_init_stores(CXCursor init, const struct hog_rules *rules,
		    void (*store)(void *arg, const char *path, CXCursor fn), void *arg);

/* lower.c */
/* a cursor's children, in order (free(k.c) when done) */
struct kids {
	CXCursor *c;
	int n, cap;
};
struct kids lc_kids_of(CXCursor c);
/* a cursor's spelling, malloc'ed ("" for none) */
char *lc_spell(CXCursor c);
/* a spelling clang gives a member or record with no name */
int lc_anonymous(const char *n);
/* a cursor's canonical type; whether a type is an array of any kind */
CXType lc_canon(CXCursor c);
int lc_is_array_type(CXType t);
const char *lc_record_tag(struct lc_fn *F, CXType t);
int lc_display_col(CXTranslationUnit tu, CXFile file, unsigned col, unsigned off);
struct hog_func *lc_lower_function(struct hog_module *m, const struct hog_rules *rules,
				   CXTranslationUnit tu, CXCursor fn, struct hog_vec *called,
				   const char **err);
const char *lc_clean_path(const char *f);
/* file (interned), line, display column of a cursor's expansion point */
int lc_where(struct lc_fn *F, CXCursor c, const char **file, int *line, int *col);

#endif
