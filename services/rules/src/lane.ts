import { join } from 'node:path';
import type { rulesV1 } from '@ratesmith/contracts';
import { LANE_MIN_BYTES, startLane, type Lane, type Logger } from '@ratesmith/kit';
import type { Versions } from './domain/versions';

/**
 * The rules lane: kit's lane (services/kit/src/lane.ts) in the rules
 * service's process, for a shop's heavy calls. A Save All of 100 × 50 filters,
 * a restore, an import or an export holds an event loop 100 to 360 ms at a
 * stretch (decoding, checking, MongoDB's driver, the snapshot, the version,
 * garbage collection), and every other shop's read waited behind it
 * (docs/security.md, S14). The lane's thread opens its own MongoDB and NATS
 * connections and answers them as a second replica in the pod would
 * (./lane-worker.ts); this thread keeps the subscription, the spans and the
 * metrics of every request, and answers all the others.
 */
export const LANE_METHODS = {
  // A filter list or a file of LANE_MIN_BYTES and more: a few filters are quicker here.
  saveRulesetFilters: LANE_MIN_BYTES,
  saveProductRuleFilters: LANE_MIN_BYTES,
  importConfig: LANE_MIN_BYTES,
  // Small requests for whatever the shop holds.
  restoreVersion: 0,
  exportConfig: 0,
} as const satisfies Partial<Record<keyof typeof rulesV1.RulesService.method, number>>;

/** Old-generation heap of the lane: an import or a Save All at the limits needs tens of MB. */
const LANE_HEAP_MB = 192;

/**
 * How long one thread waits for the other's version writes of a shop (a history
 * read, a restore, a redaction): the writes are bounded by MongoDB's time limit.
 */
export const VERSIONS_WAIT_MS = 10_000;

/**
 * The threads' messages about version writes (../domain/versions.ts, `written`):
 * either thread asks the other (kit's `ask`, each way) to wait for its pending
 * writes of a shop, and is answered once they are done.
 */
export type VersionsMessage =
  { type: 'versions-written?'; shop: string } | { type: 'versions-written' };

/**
 * The rules lane, with `versions`' pending writes of this thread shared both ways:
 * a history read here waits for a version the lane's save keeps, and one there
 * for a version this thread's save keeps.
 */
export function startRulesLane(options: { logger: Logger; versions: Versions }): Lane {
  const { versions } = options;
  const lane = startLane({
    name: 'rules lane',
    file: join(__dirname, 'lane-worker.js'),
    logger: options.logger,
    methods: LANE_METHODS,
    heapMb: LANE_HEAP_MB,
    // Started with the service and kept: its work comes with every large save.
    idleMs: undefined,
    // Its thread first connects to MongoDB and NATS: until then, calls are answered here.
    untilReady: 'decline',
    // Writes: one the thread held when it died may have been applied; never applied twice.
    lostWork: 'refuse',
    onThreadQuestion: async (question) => {
      await versions.ownWritten((question as unknown as { shop: string }).shop).catch(() => {});
      return { type: 'versions-written' } satisfies VersionsMessage;
    },
  });
  versions.alsoAwait((shop) =>
    lane.ask({ type: 'versions-written?', shop } satisfies VersionsMessage, VERSIONS_WAIT_MS),
  );
  return lane;
}
