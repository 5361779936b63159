import { AND, FILTER_WORDS, F_ROOT, OR, type CompiledSnapshot } from './compile';

/**
 * The hot tier: straight-line code for the shops that are being quoted.
 *
 * Every cached snapshot keeps only its compact program (compile.ts), which
 * `matches` walks. Once a snapshot version has been quoted HOT_AFTER times,
 * its conditions are also turned into one generated function,
 *
 *   (p, f, n) => { switch (n) { case 0: return f[0] > p[13] && (f[4] === p[17] || ...); ... } }
 *
 * where n is the filter, f the cart figures and p the snapshot's own program:
 * the constants are NOT written into the code but read from the program at
 * fixed positions. The only things ever written into the source are integers
 * the compiler produced (figure slots, program positions, filter numbers),
 * operators from the fixed table below and `&&` / `||`; never merchant text.
 *
 * So the source depends only on the program's structure, not on its numbers,
 * and is the cache key: shops whose rules have the same shape share one
 * function (10,000 shops cloned from one template cost one function).
 *
 * Functions live in a bounded LRU of `size` (COMPILED_CACHE_SIZE, default
 * 1000): a run generated function costs V8 tens of kilobytes, which the
 * 10,000 cached shops could not each afford. An evicted entry drops its
 * function; its shops go back to `matches` until quoted HOT_AFTER more times.
 *
 * Why the 2nd quote and not the 1st: a shop quoted once (a cold start, a
 * one-off checkout) never pays for generating and compiling code (tens to
 * hundreds of microseconds, many loop quotes' worth), while a shop in a
 * checkout burst gets the fast path from its second quote on.
 */

export type Matcher = (p: Int32Array, f: Float64Array, n: number) => boolean;

export interface HotEntry {
  /** Null once evicted from the LRU. */
  fn: Matcher | null;
  /** The generated source: the cache key. */
  source: string;
  /** Last use, for the LRU. */
  stamp: number;
}

/** Quotes of a snapshot version before it is compiled. */
export const HOT_AFTER = 2;
const OPS = ['===', '!==', '>', '>=', '<', '<='];

let size = 1000;
let clock = 0;
const entries = new Map<string, HotEntry>();
let generated = 0;

/** Sets the hot tier's size (0 turns it off); drops what no longer fits. */
export function configureHotTier(options: { size: number }): void {
  if (!Number.isInteger(options.size) || options.size < 0)
    throw new Error('The compiled cache size must be a whole number >= 0');
  size = options.size;
  while (entries.size > size) evictOldest();
}

/** Functions held, and functions generated since start (for tests and benchmarks). */
export function hotTierStats(): { size: number; held: number; generated: number } {
  return { size, held: entries.size, generated };
}

/** Drops every generated function (tests). */
export function clearHotTier(): void {
  for (const entry of entries.values()) {
    entry.fn = null;
    entry.source = '';
  }
  entries.clear();
}

function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error('not an integer');
  return String(n);
}

/** The expression of the group at p[at], evaluated as `matches` does (left to right, short-circuiting). */
function groupSource(p: Int32Array, at: number): string {
  const or = p[at] === OR;
  const end = p[at + 1]!;
  const parts: string[] = [];
  let i = at + 2;
  while (i < end) {
    const word = p[i]!;
    const op = word & 7;
    if (op >= AND) {
      parts.push(groupSource(p, i));
      i = p[i + 1]!;
    } else {
      parts.push(`f[${int(word >> 3)}]${OPS[op]!}p[${int(i + 1)}]`);
      i += 2;
    }
  }
  if (parts.length === 0) return or ? 'false' : 'true';
  return `(${parts.join(or ? '||' : '&&')})`;
}

/** The source of a snapshot's matcher: filter n's conditions in case n. */
export function matcherSource(c: Pick<CompiledSnapshot, 'code' | 'table'>): string {
  const { code, table } = c;
  const filters = (code.length - table) / FILTER_WORDS;
  let body = 'switch (n) {\n';
  for (let k = 0; k < filters; k++) {
    body += `case ${int(k)}: return ${groupSource(code, code[table + k * FILTER_WORDS + F_ROOT]!)};\n`;
  }
  return `${body}}\nreturn false;`;
}

/** Generates (without caching) a snapshot's matcher; tests compare it with `matches`. */
export function generateMatcher(c: Pick<CompiledSnapshot, 'code' | 'table'>): Matcher {
  return compileSource(matcherSource(c));
}

function compileSource(source: string): Matcher {
  generated++;
  // Integers and operators from OPS only, see the comment at the top.
  return new Function('p', 'f', 'n', `'use strict';\n${source}`) as Matcher;
}

function evictOldest(): void {
  let oldest: HotEntry | undefined;
  for (const entry of entries.values()) if (!oldest || entry.stamp < oldest.stamp) oldest = entry;
  if (!oldest) return;
  entries.delete(oldest.source);
  // Snapshots may still point at the entry: keep it small.
  oldest.fn = null;
  oldest.source = '';
}

/**
 * The snapshot's generated matcher if it is hot (counting this quote), else
 * null (the caller walks the program with `matches`).
 */
export function hotMatcher(c: CompiledSnapshot): Matcher | null {
  const hot = c.hot;
  if (hot !== null && hot.fn !== null) {
    hot.stamp = ++clock;
    return hot.fn;
  }
  if (size === 0 || ++c.quotes < HOT_AFTER) return null;
  c.quotes = 0;
  const source = matcherSource(c);
  let entry = entries.get(source);
  if (entry === undefined) {
    if (entries.size >= size) evictOldest();
    entry = { fn: compileSource(source), source, stamp: 0 };
    entries.set(source, entry);
  }
  entry.stamp = ++clock;
  c.hot = entry;
  return entry.fn;
}
