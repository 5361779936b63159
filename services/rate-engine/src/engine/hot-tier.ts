import type { CompiledSnapshot, HotEntry, Matcher } from './compiled-snapshot';
import { AND, FILTER_WORDS, F_ROOT, OR } from './program-layout';

/**
 * The hot tier: straight-line code for the shops that are being quoted.
 *
 * Every cached snapshot keeps only its compact program (compile.ts), which
 * `matches` (interpreter.ts) walks. Once a snapshot version has been quoted HOT_AFTER times,
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
 * 1000), one per HotTier: the service wiring (service.ts) creates the
 * tier and hands it to the quoter (evaluate.ts); tests and benchmarks create
 * their own. A run generated function costs V8 tens of kilobytes, which the
 * 10,000 cached shops could not each afford. An evicted entry drops its
 * function; its shops go back to `matches` until quoted HOT_AFTER more times.
 *
 * Why the 2nd quote and not the 1st: a shop quoted once (a cold start, a
 * one-off checkout) never pays for generating and compiling code (tens to
 * hundreds of microseconds, many loop quotes' worth), while a shop in a
 * checkout burst gets the fast path from its second quote on.
 */

/** Quotes of a snapshot version before it is compiled. */
export const HOT_AFTER = 2;
const OPS = ['===', '!==', '>', '>=', '<', '<='];

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
  // Integers and operators from OPS only, see the comment at the top.
  return new Function('p', 'f', 'n', `'use strict';\n${source}`) as Matcher;
}

function checkedSize(size: number): number {
  if (!Number.isInteger(size) || size < 0)
    throw new Error('The compiled cache size must be a whole number >= 0');
  return size;
}

/** One hot tier: its LRU of generated functions, keyed by their source. */
export class HotTier {
  private size: number;
  private clock = 0;
  private readonly entries = new Map<string, HotEntry>();
  private generated = 0;

  /** `size`: functions held at most (COMPILED_CACHE_SIZE); 0 turns the tier off. */
  constructor(options: { size: number } = { size: 1000 }) {
    this.size = checkedSize(options.size);
  }

  /** Sets the tier's size (0 turns it off); drops what no longer fits. */
  resize(size: number): void {
    this.size = checkedSize(size);
    while (this.entries.size > this.size) this.evictOldest();
  }

  /** Functions held, and functions generated since it was created (for tests and benchmarks). */
  stats(): { size: number; held: number; generated: number } {
    return { size: this.size, held: this.entries.size, generated: this.generated };
  }

  /** Drops every generated function. */
  clear(): void {
    for (const entry of this.entries.values()) {
      entry.fn = null;
      entry.source = '';
    }
    this.entries.clear();
  }

  /**
   * The snapshot's generated matcher if it is hot (counting this quote), else
   * null (the caller walks the program with `matches`).
   */
  matcher(c: CompiledSnapshot): Matcher | null {
    const hot = c.hot;
    if (hot !== null && hot.fn !== null) {
      hot.stamp = ++this.clock;
      return hot.fn;
    }
    if (this.size === 0 || ++c.quotes < HOT_AFTER) return null;
    c.quotes = 0;
    const source = matcherSource(c);
    let entry = this.entries.get(source);
    if (entry === undefined) {
      if (this.entries.size >= this.size) this.evictOldest();
      this.generated++;
      entry = { fn: compileSource(source), source, stamp: 0 };
      this.entries.set(source, entry);
    }
    entry.stamp = ++this.clock;
    c.hot = entry;
    return entry.fn;
  }

  private evictOldest(): void {
    let oldest: HotEntry | undefined;
    for (const entry of this.entries.values())
      if (!oldest || entry.stamp < oldest.stamp) oldest = entry;
    if (!oldest) return;
    this.entries.delete(oldest.source);
    // Snapshots may still point at the entry: keep it small.
    oldest.fn = null;
    oldest.source = '';
  }
}
