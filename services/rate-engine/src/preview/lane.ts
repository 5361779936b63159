import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@ratesmith/kit';

/**
 * The preview lane: the admin's rate previews answered on a worker thread of
 * the engine's process, at the lowest CPU priority (./lane-worker.ts), never
 * on the event loop that answers checkout. A preview of a 100 × 50 draft
 * decodes, checks and compiles the whole draft: 100 to 350 ms of one core on
 * a busy machine, during which every carrier callback behind it waited
 * (docs/security.md, S14). The lane has its own NATS connection, as the
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

export interface PreviewLane {
  /** Resolves once the lane has subscribed (or rejects if its first start failed). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

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
    current.on('message', (message: { type: string; error?: string }) => {
      if (message.type === 'ready') {
        logger.info('preview lane ready');
        if (!started) settleReady();
        started = true;
      } else if (message.type === 'failed') failure = message.error ?? failure;
    });
    current.on('error', (err) => {
      failure = err.message;
      logger.error({ err }, 'preview lane failed');
    });
    current.on('exit', (code) => {
      if (worker === current) worker = undefined;
      if (stopping) return;
      // Never up: a start-up fault (configuration, NATS), the service's own to report.
      if (!started) return settleReady(new Error(`the preview lane did not start: ${failure}`));
      logger.error({ code }, `preview lane exited; starting it again in ${RESTART_MS} ms`);
      restart = setTimeout(start, RESTART_MS);
    });
  };
  start();

  return {
    ready,
    stop: async () => {
      stopping = true;
      clearTimeout(restart);
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
