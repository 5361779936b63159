import { join } from 'node:path';
import { startLane, type LaneMessage, type Logger, type RequestOffload } from '@ratesmith/kit';
import type { LargeSnapshotDecoder } from '../snapshots/watcher';
import type { PreviewLaneMessage } from './lane-messages';

/**
 * The preview lane: kit's lane (services/kit/src/lane.ts) in the engine's
 * process, for the heavy work checkout must never wait behind:
 * - the admin's rate previews (serveRpc's `offload`). A preview of a 100 × 50
 *   draft decodes, checks and compiles the whole draft, 100 to 350 ms of one
 *   core on a busy machine, during which every carrier callback behind it
 *   waited (docs/security.md, S14);
 * - unpacking, checking and compiling the large snapshots the watch brings
 *   (`decode`): this thread only stores the compiled copy.
 * Its thread only loads code, so work handed to it while it starts waits for
 * it; a preview it held when it died is done again on this thread (a read).
 */

/** Stopped after this long without work. */
const IDLE_MS = 60_000;
/** Old-generation heap of the lane: a preview of the largest draft needs a few tens of MB. */
const LANE_HEAP_MB = 256;
/**
 * How long the watch waits for the lane to decode a large snapshot before it
 * decodes it itself: the lane may be starved by checkout (that is its
 * priority), and a merchant's save must still reach checkout in seconds.
 */
const DECODE_WAIT_MS = 2000;

/** The file the lane runs: this one's compiled sibling (the service runs from dist). */
const WORKER_FILE = join(__dirname, 'lane-worker.js');

export interface PreviewLane {
  /** serveRpc's offload: previews answered on the lane. */
  answer: RequestOffload;
  /** A large snapshot unpacked, checked and compiled on the lane; undefined when the lane did not in time. */
  decode: LargeSnapshotDecoder;
  stop(): Promise<void>;
}

export interface PreviewLaneOptions {
  logger: Logger;
  /** A shop's snapshot as the bucket holds it (bytes, unread), for the lane's previews. */
  readSnapshot: (shop: string) => Promise<{ value: Uint8Array; writtenAt: number } | undefined>;
  /** Tests: another thread to run (a JS file speaking ./lane-messages.ts) and its environment. */
  thread?: { file: string; env?: NodeJS.ProcessEnv };
  idleMs?: number;
  restartPauseMs?: number;
}

export function startPreviewLane(options: PreviewLaneOptions): PreviewLane {
  const lane = startLane({
    name: 'preview lane',
    file: options.thread?.file ?? WORKER_FILE,
    env: options.thread?.env,
    logger: options.logger,
    // Every preview: even a small draft's compiles against up to 1,000 lines.
    methods: { previewRates: 0 },
    heapMb: LANE_HEAP_MB,
    idleMs: options.idleMs ?? IDLE_MS,
    restartPauseMs: options.restartPauseMs,
    untilReady: 'queue',
    lostWork: 'rerun',
    onThreadQuestion: async (question) => {
      const { shop } = question as unknown as Extract<PreviewLaneMessage, { type: 'snapshot?' }>;
      const answer = await options.readSnapshot(shop).then(
        (found) => ({ ...found }),
        (err: Error) => ({ error: err.message }),
      );
      return { type: 'snapshot', ...answer } satisfies PreviewLaneMessage;
    },
  });
  return {
    answer: lane.answer,
    decode: async (value) => {
      // A copy: the entry's bytes may be a view on a buffer the feed still uses.
      const answer = await lane.ask<LaneMessage & Extract<PreviewLaneMessage, { type: 'decoded' }>>(
        { type: 'decode', value },
        DECODE_WAIT_MS,
      );
      if (!answer) return undefined;
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer.prepared;
    },
    stop: () => lane.stop(),
  };
}
