import type { Logger } from '@ratesmith/kit';
import type { VersionHistoryRepository, VersionKind } from '../data/version-history.repository';

/**
 * Deletes the versions that fell past the kept ones once their shop has kept
 * answered no save for `quietMs` (the rules service's VERSION_PRUNE_QUIET_MS), a
 * few at a time. Pruning after every version put two deletes behind each save,
 * whose cost on FerretDB grows with the history, so a burst of saves on a
 * long-lived shop queued its deletes behind the next saves; the reads hide those
 * versions meanwhile (VersionHistoryRepository). `run` queues the prune behind
 * the shop's version writes (Versions in versions.ts).
 */
/**
 * Versions one quiet period deletes at most, over all of a shop's subjects: a
 * long burst of saves (or an import) is pruned a few at a time, never in one
 * long run of deletes that a shop's next version writes would queue behind.
 */
const PRUNED_PER_QUIET_PERIOD = 10;

export class VersionPruning {
  private readonly waiting = new Map<
    string,
    { timer: NodeJS.Timeout; subjects: Map<string, { kind: VersionKind; subjectId: string }> }
  >();

  constructor(
    private readonly deps: {
      history: VersionHistoryRepository;
      logger: Logger;
      run: (shop: string, task: () => Promise<void>) => void;
      quietMs: number;
    },
  ) {}

  /** A version of the subject was kept: prune it once the shop is quiet. */
  kept(shop: string, kind: VersionKind, subjectId: string): void {
    const entry = this.waiting.get(shop) ?? { timer: undefined!, subjects: new Map() };
    entry.subjects.set(`${kind}/${subjectId}`, { kind, subjectId });
    this.waiting.set(shop, entry);
    this.postpone(shop);
  }

  /** The shop saved again: its waiting prune waits for another quiet period. */
  postpone(shop: string): void {
    const entry = this.waiting.get(shop);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.prune(shop), this.deps.quietMs);
    entry.timer.unref();
  }

  /** Every waiting prune now (before the service stops). */
  pruneAllNow(): void {
    for (const shop of [...this.waiting.keys()]) this.prune(shop);
  }

  private prune(shop: string): void {
    const entry = this.waiting.get(shop);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(shop);
    this.deps.run(shop, async () => {
      // A few at a time for the whole shop: what is left waits for the next quiet period.
      let budget = PRUNED_PER_QUIET_PERIOD;
      for (const { kind, subjectId } of entry.subjects.values()) {
        if (budget === 0) {
          this.kept(shop, kind, subjectId);
          continue;
        }
        try {
          const { deleted, left } = await this.deps.history.prune(shop, kind, subjectId, budget);
          budget -= deleted;
          if (left > 0) this.kept(shop, kind, subjectId);
        } catch (err) {
          // The reads hide these versions; the subject's next prune deletes them.
          this.deps.logger.warn(
            { err: (err as Error).message, shop, kind, subjectId },
            'old versions not pruned yet',
          );
        }
      }
    });
  }
}
