#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The e2e before/after table (scripts/e2e.sh): reads E2E/pristine.json
and E2E/patched.json (the kernel runtime's JSON, docs/runtime.md) and the
batch the guests printed, writes E2E/result.json and prints the table.

    python3 scripts/e2e-table.py build/e2e
"""
import json
import re
import sys

STOCK_LOCK = 'memcg_stock.stock_lock'
ZONE_LOCK = 'zone->lock'
BULK = 'free_pcppages_bulk'
FREE_ONE = '__free_one_page'
THRESHOLD = 'stats_flush_threshold'


def rel(path):
    """mm/memory.c for .../build/e2e/src/cur/mm/memory.c: an O= build
    hands the compiler absolute paths, and the plugin records those."""
    return re.sub(r'^.*/src/cur/', '', path)


def batch(log):
    """The largest pcp batch in the guest's /proc/zoneinfo."""
    for line in open(log, errors='replace'):
        m = re.match(r'^LOCKHOG-BATCH (\d+)', line)
        if m:
            return int(m.group(1))
    return None


def calls_under(rt, lock, callee):
    return sum(i.get('calls', 0) for s in rt['sections'] if s['lock'] == lock
               for i in s['inner'] if i['kind'] == 'call' and i['name'] == callee)


def calls_by(rt, lock, callee):
    """The same calls by the function they are in: drain_stock() is what
    0001 moves out of the lock, drain_obj_stock() is not."""
    out = {}
    for sec in rt['sections']:
        if sec['lock'] != lock:
            continue
        for i in sec['inner']:
            if i['kind'] == 'call' and i['name'] == callee:
                k = '%s <- %s' % (i['function'], sec['function'])
                out[k] = out.get(k, 0) + i.get('calls', 0)
    return out


def bulk_free_max(rt):
    """The most __free_one_page() iterations in one zone->lock hold of a
    free_pcppages_bulk() section: the loop named after __free_one_page if
    the plugin named one, else the largest of the function's loops."""
    loops = [i for s in rt['sections'] if s['lock'] == ZONE_LOCK
             for i in s['inner'] if i['kind'] == 'loop' and i['function'] == BULK]
    named = [i for i in loops if i['name'] == FREE_ONE]
    return max((i['iters_max'] for i in (named or loops)), default=0)


def atomics(rt, name):
    return sum(a['count'] for a in rt['atomics'] if a['name'] == name)


def row(rt):
    return {
        'sites_total': rt.get('sites_total', 0),
        'sections': len(rt.get('sections', [])),
        'uncharge_in_stock_lock': calls_under(rt, STOCK_LOCK, 'page_counter_uncharge'),
        'css_put_in_stock_lock': calls_under(rt, STOCK_LOCK, 'css_put'),
        'uncharge_in_stock_lock_by': calls_by(rt, STOCK_LOCK, 'page_counter_uncharge'),
        'css_put_in_stock_lock_by': calls_by(rt, STOCK_LOCK, 'css_put'),
        'bulk_holds': sum(s['holds'] for s in rt['sections']
                          if s['lock'] == ZONE_LOCK and s['function'] == BULK),
        'bulk_free_max_per_hold': bulk_free_max(rt),
        'stats_flush_threshold_rmw': atomics(rt, THRESHOLD),
        'overflow': rt.get('overflow', {}),
        'duration_ns': rt.get('duration_ns', 0),
    }


def sites(pre, post):
    """max and p99 hold per acquire site, the two kernels side by side."""
    def key(s):
        return (s['function'], s['lock'])
    out = {}
    for tag, rt in (('pristine', pre), ('patched', post)):
        for s in rt['sections']:
            e = out.setdefault(key(s), {'function': s['function'], 'lock': s['lock']})
            # one function may take a lock at several sites: the worst
            if s['max_ns'] >= e.get(tag, {}).get('max_ns', -1):
                e[tag] = {'file': rel(s['file']), 'line': s['line'], 'holds': s['holds'],
                          'max_ns': s['max_ns'], 'p99_ns': s['p99_ns']}
    return sorted(out.values(), key=lambda e: -max(e.get('pristine', {}).get('max_ns', 0),
                                                  e.get('patched', {}).get('max_ns', 0)))


def show(res):
    a, b = res['pristine'], res['patched']
    print('%-58s %12s %12s' % ('', 'pristine', 'patched'))
    for k, what in (('sites_total', 'instrumented sites'),
                    ('sections', 'acquire sites with holds'),
                    ('uncharge_in_stock_lock', 'page_counter_uncharge in stock_lock sections'),
                    ('css_put_in_stock_lock', 'css_put in stock_lock sections'),
                    ('bulk_free_max_per_hold', 'most pages freed in one zone->lock hold (bulk)'),
                    ('stats_flush_threshold_rmw', 'atomic RMWs on stats_flush_threshold')):
        print('%-58s %12s %12s' % (what, a[k], b[k]))
    print('%-58s %12s %12s' % ('pcp batch (largest, /proc/zoneinfo)', res['batch']['pristine'],
                               res['batch']['patched']))
    print('%-58s %12s %12s' % ('zone->lock holds at free_pcppages_bulk\'s acquire', a['bulk_holds'],
                               b['bulk_holds']))
    for k, what in (('uncharge_in_stock_lock_by', 'page_counter_uncharge'),
                    ('css_put_in_stock_lock_by', 'css_put')):
        for site in sorted(set(a[k]) | set(b[k])):
            print('%-58s %12s %12s' % ('  %s in %s' % (what, site), a[k].get(site, 0),
                                       b[k].get(site, 0)))
    print()
    print('%-28s %-24s %12s %12s %12s %12s' % ('function', 'lock', 'max before', 'p99 before',
                                              'max after', 'p99 after'))
    for e in res['sites'][:25]:
        p, q = e.get('pristine', {}), e.get('patched', {})
        print('%-28s %-24s %12s %12s %12s %12s' % (e['function'][:28], e['lock'][:24],
                                                  p.get('max_ns', '-'), p.get('p99_ns', '-'),
                                                  q.get('max_ns', '-'), q.get('p99_ns', '-')))
    if len(res['sites']) > 25:
        print('(%d more sites in result.json)' % (len(res['sites']) - 25))


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: e2e-table.py E2E_DIR')
    d = sys.argv[1]
    try:
        pre = json.load(open('%s/pristine.json' % d))
        post = json.load(open('%s/patched.json' % d))
    except (OSError, ValueError) as e:
        sys.exit('e2e-table: %s' % e)
    for rt in (pre, post):
        if rt.get('lockhog_runtime') != 1:
            sys.exit('e2e-table: not a lockhog runtime report (no "lockhog_runtime": 1)')
    res = {'pristine': row(pre), 'patched': row(post), 'sites': sites(pre, post),
           'batch': {'pristine': batch('%s/pristine.log' % d), 'patched': batch('%s/patched.log' % d)}}
    with open('%s/result.json.tmp' % d, 'w') as f:
        json.dump(res, f, indent=1)
    import os
    os.replace('%s/result.json.tmp' % d, '%s/result.json' % d)
    show(res)


if __name__ == '__main__':
    main()
