import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One memory-reducing collection, for the end of the start-up load.
 *
 * Loading every snapshot (about 40 KB of JSON each, parsed, checked and
 * compiled) grows V8's young generation to its largest size (128 MB of new
 * space measured in benchmark 4a), and V8 shrinks it only once it judges the
 * process idle, which under callback traffic may be long after: resident memory
 * read right after the load was up to 120 MB higher than a minute later
 * (docs/performance.md). A "last resort" major collection shrinks
 * the young generation at once and compacts what the load left behind.
 *
 * V8 offers that collection only to code given `gc`: the flag is set here and
 * the function taken from a fresh context, so the main context's globals are
 * unchanged. Returns false when the runtime does not offer it.
 */
type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let gc: Gc | null | undefined;

export function releaseLoadMemory(): boolean {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = (runInNewContext('gc') as Gc | undefined) ?? null;
    } catch {
      gc = null;
    }
  }
  if (!gc) return false;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}
