import type { CompiledSnapshot, HotEntry, Matcher } from './compiled-snapshot';
import { AND, FILTER_WORDS, F_ROOT, OR } from './program-layout';

/**
 * The hot tier: straight-line code for the shops that are being quoted.
 *
 * Every cached snapshot keeps only its compact program (compile.ts), which
 * `matches` (interpreter.ts) walks. Once a snapshot version is busy (quoted
 * `busyQuotes` times, HOT_AFTER unless told, within one minute), its
 * conditions are also turned into one generated function,
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
 * function; its shops go back to `matches` until busy again.
 *
 * Why a rate and not a count: generating and compiling code costs tens to
 * hundreds of microseconds and tens of kilobytes that V8 frees only slowly,
 * while the loop is only about 1.4 times slower on a quote that is a few
 * microseconds of a callback. A shop quoted now and then (most of them)
 * never pays for code; a shop in a checkout burst gets it within its first
 * HOT_AFTER quotes. And at most `compilesPerSecond` functions are generated a
 * second (a token bucket), so a wave of shops becoming busy at once (a
 * replica's start, a sale across many stores) cannot fill memory with code
 * faster than the collector frees it; a shop over the budget simply stays on
 * the loop (its quote never waits or fails) and tries again on a later quote.
 */

/** Quotes within BUSY_WINDOW_MS that make a snapshot version busy (COMPILE_AFTER_QUOTES). */
export const HOT_AFTER = 10;
/** The window in which a snapshot's quotes are counted. */
export const BUSY_WINDOW_MS = 60_000;
/** Generated functions a second at most (COMPILES_PER_SECOND). */
export const COMPILES_PER_SECOND = 20;
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

function checkedPositive(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${what} must be a whole number >= 1`);
  return value;
}

export interface HotTierOptions {
  /** Functions held at most (COMPILED_CACHE_SIZE); 0 turns the tier off. */
  size: number;
  /** Quotes of a snapshot version within a minute before it gets code (HOT_AFTER unless told). */
  busyQuotes?: number;
  /** Functions generated a second at most (COMPILES_PER_SECOND unless told). */
  compilesPerSecond?: number;
  /** The clock in milliseconds (tests pass their own). */
  now?: () => number;
}

/** One hot tier: its LRU of generated functions, keyed by their source. */
export class HotTier {
  private size: number;
  private clock = 0;
  private readonly entries = new Map<string, HotEntry>();
  private generated = 0;
  private deferred = 0;
  private readonly busyQuotes: number;
  private readonly compilesPerSecond: number;
  private readonly now: () => number;
  /** The compile budget: a token bucket of compilesPerSecond, full at the start. */
  private tokens: number;
  private refilledAt: number;

  constructor(options: HotTierOptions = { size: 1000 }) {
    this.size = checkedSize(options.size);
    this.busyQuotes = checkedPositive(options.busyQuotes ?? HOT_AFTER, 'The busy quote count');
    this.compilesPerSecond = checkedPositive(
      options.compilesPerSecond ?? COMPILES_PER_SECOND,
      'The compiles a second',
    );
    this.now = options.now ?? Date.now;
    this.tokens = this.compilesPerSecond;
    this.refilledAt = this.now();
  }

  /** Sets the tier's size (0 turns it off); drops what no longer fits. */
  resize(size: number): void {
    this.size = checkedSize(size);
    while (this.entries.size > this.size) this.evictOldest();
  }

  /**
   * Functions held, functions generated since it was created, and busy
   * snapshots left on the loop for want of compile budget (for tests and benchmarks).
   */
  stats(): { size: number; held: number; generated: number; deferred: number } {
    return {
      size: this.size,
      held: this.entries.size,
      generated: this.generated,
      deferred: this.deferred,
    };
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
    if (this.size === 0 || !this.busy(c)) return null;
    const source = matcherSource(c);
    let entry = this.entries.get(source);
    if (entry === undefined) {
      if (!this.takeCompileToken()) {
        // Over budget: this quote runs on the loop, a later one tries again.
        this.deferred++;
        return null;
      }
      if (this.entries.size >= this.size) this.evictOldest();
      this.generated++;
      entry = { fn: compileSource(source), source, stamp: 0 };
      this.entries.set(source, entry);
    }
    entry.stamp = ++this.clock;
    c.quotes = 0;
    c.hot = entry;
    return entry.fn;
  }

  /** Counts this quote in the snapshot's one-minute window: true once it reaches busyQuotes. */
  private busy(c: CompiledSnapshot): boolean {
    const now = this.now();
    if (now - c.countedSince >= BUSY_WINDOW_MS) {
      c.countedSince = now;
      c.quotes = 0;
    }
    return ++c.quotes >= this.busyQuotes;
  }

  private takeCompileToken(): boolean {
    const now = this.now();
    const rate = this.compilesPerSecond;
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
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
