import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Snapshot } from '@ratesmith/contracts';
import { AppError, type Logger, type PackedReply, type RequestOffload } from '@ratesmith/kit';
import type { LargeSnapshotDecoder } from '../snapshots/watcher';
import type { LaneAnswer, LaneRequest } from './lane-messages';

/**
 * The preview lane: a worker thread of the engine's process, at a lower CPU
 * priority (nice LANE_NICE, ./lane-worker.ts), that does the heavy work checkout must
 * never wait behind:
 * - the admin's rate previews: this thread hands over each request's bytes
 *   and sends back the reply's (serveRpc's `offload`). A preview of a 100 × 50
 *   draft decodes, checks and compiles the whole draft, 100 to 350 ms of one
 *   core on a busy machine, during which every carrier callback behind it
 *   waited (docs/security.md, S14);
 * - unpacking and checking the large snapshots the watch brings (`decode`):
 *   this thread only takes the copy and compiles it.
 * With the engine's other threads at the default priority, the kernel gives
 * checkout the cores first whenever both want them.
 *
 * The lane costs a V8 instance (about 70 MB resident, most of it the
 * contracts' and the engine's code), so it starts with its first piece of
 * work and stops after IDLE_MS without any: an engine nobody previews on pays
 * nothing. While it cannot take work (starting, crashed), previews and
 * decodes run on this thread as they did before the lane: degraded, never
 * refused.
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
/** How long stop() waits for the lane to finish what it holds before ending it. */
const STOP_WAIT_MS = 10_000;

/** The file the lane runs: this one's compiled sibling (the service runs from dist). */
const WORKER_FILE = join(__dirname, 'lane-worker.js');

export interface PreviewLane {
  /** serveRpc's offload: previews answered on the lane. */
  answer: RequestOffload;
  /** A large snapshot unpacked and checked on the lane; undefined when the lane did not in time. */
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
}

type Settle = (answer: LaneAnswer | undefined) => void;

export function startPreviewLane(options: PreviewLaneOptions): PreviewLane {
  const { logger } = options;
  const file = options.thread?.file ?? WORKER_FILE;
  const idleMs = options.idleMs ?? IDLE_MS;
  let worker: Worker | undefined;
  let idle: NodeJS.Timeout | undefined;
  let stopped = false;
  let nextId = 0;
  /** Work handed to the current thread, by id: settled with its answer, or undefined if it died. */
  const pending = new Map<number, Settle>();

  const settleAll = () => {
    for (const settle of pending.values()) settle(undefined);
    pending.clear();
  };

  const armIdle = () => {
    clearTimeout(idle);
    if (pending.size > 0 || !worker) return;
    idle = setTimeout(() => {
      const current = worker;
      if (!current || pending.size > 0) return;
      worker = undefined;
      logger.info('preview lane idle: stopped');
      current.postMessage({ type: 'stop' } satisfies LaneRequest);
    }, idleMs);
    idle.unref();
  };

  const start = (): Worker => {
    const current = new Worker(file, {
      resourceLimits: { maxOldGenerationSizeMb: LANE_HEAP_MB },
      ...(options.thread?.env ? { env: options.thread.env } : {}),
    });
    current.on('message', (message: LaneAnswer) => {
      if (message.type === 'snapshot?') {
        void options.readSnapshot(message.shop).then(
          (found) =>
            current.postMessage({
              type: 'snapshot',
              id: message.id,
              ...found,
            } satisfies LaneRequest),
          (err: Error) =>
            current.postMessage({
              type: 'snapshot',
              id: message.id,
              error: err.message,
            } satisfies LaneRequest),
        );
        return;
      }
      const settle = pending.get(message.id);
      pending.delete(message.id);
      settle?.(message);
      armIdle();
    });
    current.on('error', (err) => logger.error({ err }, 'preview lane failed'));
    current.on('exit', (code) => {
      if (worker === current) {
        worker = undefined;
        if (!stopped)
          logger.error({ code }, 'preview lane exited; it starts again with its next work');
        settleAll();
      }
    });
    logger.info('preview lane started');
    return current;
  };

  /** Hands `request` to the lane (started if need be); undefined if the lane ends first. */
  const send = (request: LaneRequest & { id: number }): Promise<LaneAnswer | undefined> => {
    if (stopped) return Promise.resolve(undefined);
    clearTimeout(idle);
    worker ??= start();
    const current = worker;
    return new Promise((resolve) => {
      pending.set(request.id, resolve);
      current.postMessage(request);
    });
  };

  return {
    answer: async ({ method, data, encoding, limit, requestId }) => {
      const answer = await send({
        type: 'answer',
        id: nextId++,
        method: method.localName,
        data,
        encoding,
        limit,
        requestId,
      });
      if (answer?.type !== 'answered') return undefined;
      if (answer.error)
        throw new AppError(answer.error.kind, answer.error.message, answer.error.details);
      return { data: answer.data!, gzipped: answer.gzipped! } satisfies PackedReply;
    },
    decode: async (value) => {
      const id = nextId++;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => {
          // Decoded here instead; the lane's answer, if it comes, is dropped.
          pending.delete(id);
          resolve(undefined);
          armIdle();
        }, DECODE_WAIT_MS);
      });
      // A copy: the entry's bytes may be a view on a buffer the feed still uses.
      const answer = await Promise.race([send({ type: 'decode', id, value }), late]);
      clearTimeout(timer);
      if (answer?.type !== 'decoded') return undefined;
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer.snapshot as Snapshot;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(idle);
      const current = worker;
      worker = undefined;
      settleAll();
      if (!current) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.postMessage({ type: 'stop' } satisfies LaneRequest);
      const timer = setTimeout(() => void current.terminate(), STOP_WAIT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
