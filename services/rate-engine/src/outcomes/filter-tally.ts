import type { MessageInitShape } from '@bufbuild/protobuf';
import { rulesV1 } from '@ratesmith/contracts';
import { filterCountOf, type CompiledSnapshot, type FilterHits } from '../engine';

export type FilterCount = MessageInitShape<typeof rulesV1.FilterOutcomeCountSchema>;

/** Three slots a filter in `FilterTally.counts`: matched, stopped, fee change. */
const SLOTS = 3;

/**
 * One shop-day's per-filter counts (docs/architecture.md, "Per-filter
 * analytics"). While the shop's snapshot stays the same, a callback adds its
 * hits straight into a typed array indexed by filter k: no key, no object.
 * When a save replaces the snapshot mid-window, the counts so far are folded
 * into `earlier` by filter id, and counting goes on against the new one.
 */
export class FilterTally {
  private compiled: CompiledSnapshot | null = null;
  private counts: Float64Array | null = null;
  private earlier: Map<string, FilterCount> | null = null;

  /**
   * Adds one quote's hits; false when a new snapshot would need more room than
   * `room` filters (the recorder's cap), then nothing is counted.
   */
  add(compiled: CompiledSnapshot, hits: FilterHits, room: (filters: number) => boolean): boolean {
    if (compiled !== this.compiled) {
      const filters = filterCountOf(compiled);
      if (!room(filters)) return false;
      this.fold();
      this.compiled = compiled;
      this.counts = new Float64Array(filters * SLOTS);
    }
    const counts = this.counts!;
    for (let i = 0; i < hits.count; i++) {
      const entry = hits.filters[i]!;
      const at = (entry >> 1) * SLOTS;
      counts[at] = counts[at]! + 1;
      counts[at + 1] = counts[at + 1]! + (entry & 1);
      counts[at + 2] = counts[at + 2]! + hits.fees[i]!;
    }
    return true;
  }

  /** Every filter matched at least once, by owner and id. */
  entries(): FilterCount[] {
    this.fold();
    return this.earlier ? [...this.earlier.values()] : [];
  }

  /** Moves the current snapshot's counts into `earlier`, keyed by owner and filter id. */
  private fold(): void {
    const { compiled, counts } = this;
    if (compiled === null || counts === null) return;
    const earlier = (this.earlier ??= new Map());
    forEachFilter(compiled, (k, owner, ownerId) => {
      const matched = counts[k * SLOTS]!;
      if (matched === 0) return;
      const filterId = compiled.texts[2 * k]!;
      const key = `${owner} ${ownerId} ${filterId}`;
      const entry = earlier.get(key);
      const stopped = counts[k * SLOTS + 1]!;
      const fee = counts[k * SLOTS + 2]!;
      if (entry) {
        entry.matched! += matched;
        entry.stopped! += stopped;
        entry.fee! += fee;
      } else earlier.set(key, { owner, ownerId, filterId, matched, stopped, fee });
    });
    this.compiled = null;
    this.counts = null;
  }
}

/** Each filter k of the snapshot with the ruleset or product rule it belongs to. */
function forEachFilter(
  c: CompiledSnapshot,
  visit: (k: number, owner: rulesV1.FilterOwner, ownerId: string) => void,
): void {
  const g = c.global;
  if (g)
    for (let k = g.offset; k < g.offset + g.count; k++) visit(k, rulesV1.FilterOwner.RULESET, g.id);
  for (const rule of c.productRules)
    for (let k = rule.offset; k < rule.offset + rule.count; k++)
      visit(k, rulesV1.FilterOwner.PRODUCT_RULE, rule.id);
}
