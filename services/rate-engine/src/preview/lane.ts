import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Snapshot } from '@ratesmith/contracts';
import type { Logger } from '@ratesmith/kit';
import type { LargeSnapshotDecoder } from '../snapshots/watcher';

/**
 * The preview lane: the admin's rate previews answered on a worker thread of
 * the engine's process, at the lowest CPU priority (./lane-worker.ts), never
 * on the event loop that answers checkout. A preview of a 100 × 50 draft
 * decodes, checks and compiles the whole draft: 100 to 350 ms of one core on
 * a busy machine, during which every carrier callback behind it waited
 * (docs/security.md, S14). The lane also unpacks and checks the large
 * snapshots the watch brings (`decode`); the checkout's thread only takes the
 * copy and compiles it. The lane has its own NATS connection, as the
 * engine's user, and takes every PreviewRates request of this replica; with
 * the engine's threads at the default priority, the kernel gives checkout the
 * cores first whenever both want them.
 *
 * A lane that exits unasked (a crash, its memory limit) is started again
 * after RESTART_MS; meanwhile previews answer "not available" and checkout
 * is untouched. One that never started fails the service's start.
 */

const RESTART_MS = 1000;
/** Old-generation heap of the lane: a preview of the largest draft needs a few tens of MB. */
const LANE_HEAP_MB = 256;
/** How long stop() waits for the lane to answer what it holds before ending it. */
const STOP_WAIT_MS = 10_000;

/**
 * How long the watch waits for the lane to decode a large snapshot before it
 * decodes it itself: the lane may be starved by checkout (that is its
 * priority), and a merchant's save must still reach checkout in seconds.
 */
const DECODE_WAIT_MS = 2000;

export interface PreviewLane {
  /** Resolves once the lane has subscribed (or rejects if its first start failed). */
  ready: Promise<void>;
  /**
   * A large snapshot from the bucket, unpacked and checked on the lane (then
   * copied here whole); undefined when the lane is down or did not answer
   * within DECODE_WAIT_MS. Rejects for an unreadable snapshot.
   */
  decode: LargeSnapshotDecoder;
  stop(): Promise<void>;
}

/** The lane's messages to this thread. */
type LaneMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'decoded'; id: number; snapshot?: Snapshot; error?: string };

/** The file the lane runs: this one's compiled sibling (the service runs from dist). */
const WORKER_FILE = join(__dirname, 'lane-worker.js');

export function startPreviewLane(
  logger: Logger,
  /** Tests: another thread to supervise (a JS file speaking the same messages) and its environment. */
  thread: { file: string; env?: NodeJS.ProcessEnv } = { file: WORKER_FILE },
): PreviewLane {
  let stopping = false;
  let worker: Worker | undefined;
  let restart: NodeJS.Timeout | undefined;
  let started = false;
  let failure = 'it exited';
  let up = false;
  let nextId = 0;
  const decoding = new Map<number, (result: { snapshot?: Snapshot; error?: string }) => void>();
  /** Decodes still waiting on a lane that went away: decoded here instead. */
  const abandonDecodes = () => {
    for (const settle of decoding.values()) settle({});
    decoding.clear();
  };
  let settleReady!: (error?: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = (error) => (error ? reject(error) : resolve());
  });

  const start = () => {
    const current = new Worker(thread.file, {
      resourceLimits: { maxOldGenerationSizeMb: LANE_HEAP_MB },
      ...(thread.env ? { env: thread.env } : {}),
    });
    worker = current;
    current.on('message', (message: LaneMessage) => {
      if (message.type === 'decoded') {
        decoding.get(message.id)?.(message);
        decoding.delete(message.id);
      } else if (message.type === 'ready') {
        logger.info('preview lane ready');
        if (!started) settleReady();
        started = true;
        up = true;
      } else if (message.type === 'failed') failure = message.error;
    });
    current.on('error', (err) => {
      failure = err.message;
      logger.error({ err }, 'preview lane failed');
    });
    current.on('exit', (code) => {
      if (worker === current) worker = undefined;
      up = false;
      abandonDecodes();
      if (stopping) return;
      // Never up: a start-up fault (configuration, NATS), the service's own to report.
      if (!started) return settleReady(new Error(`the preview lane did not start: ${failure}`));
      logger.error({ code }, `preview lane exited; starting it again in ${RESTART_MS} ms`);
      restart = setTimeout(start, RESTART_MS);
    });
  };
  start();

  const decode: LargeSnapshotDecoder = (value) => {
    const current = worker;
    if (!current || !up) return Promise.resolve(undefined);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        decoding.delete(id);
        resolve(undefined);
      }, DECODE_WAIT_MS);
      decoding.set(id, ({ snapshot, error }) => {
        clearTimeout(timer);
        if (error !== undefined) reject(new Error(error));
        else resolve(snapshot);
      });
      // A copy: the entry's bytes may be a view on a buffer the feed still uses.
      current.postMessage({ type: 'decode', id, value });
    });
  };

  return {
    ready,
    decode,
    stop: async () => {
      stopping = true;
      clearTimeout(restart);
      up = false;
      abandonDecodes();
      const current = worker;
      if (!current) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.postMessage({ type: 'stop' });
      const timer = setTimeout(() => void current.terminate(), STOP_WAIT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
