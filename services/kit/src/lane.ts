import { Worker } from 'node:worker_threads';
import { metrics } from '@opentelemetry/api';
import { AppError, type ErrorKind } from './errors';
import type { Logger } from './logger';
import type { PackedReply, RequestOffload } from './rpc';

/**
 * A lane: a worker thread of a service's process, at a lower CPU priority
 * (LANE_NICE, set by serveLaneThread in ./lane-thread.ts), that answers the
 * heavy requests the service's event loop must not hold everyone else's
 * behind (serveRpc's `offload`: the request's bytes go over, the reply's
 * bytes come back; the spans, metrics, deadline and NATS subscription stay on
 * the service's thread). With the service's other threads at the default
 * priority, the kernel gives the light requests a core first whenever both
 * want one (docs/architecture.md, "Heavy work off the event loop").
 *
 * A lane costs a V8 instance (70 MB resident and more) and its start costs
 * seconds of a core (its code, its connections). A lane whose work is rare
 * (the engine's previews) starts with its first piece of work and stops after
 * `idleMs` without any; one whose work comes with every large save (rules,
 * the gateway) starts with the service and stays (`idleMs` undefined), so no
 * merchant's save waits on, or competes with, its start. While it cannot take
 * work, the service's own thread does it, as without a lane: degraded, never
 * refused.
 */

/**
 * A lane's nice value (on Linux a thread's priority is its own; lowering it
 * needs no privilege). Against one busy thread at the default on the same core,
 * a thread at 10 gets about a tenth of it. At 19 it got 1.4 %: on a machine
 * shared with other busy processes and no cgroup between them (a developer's
 * machine, the test suite beside another stack), a flooding shop's previews
 * then outlasted the bus's 2 s (7 of 17 in a fresh clone's run).
 */
export const LANE_NICE = 10;

/** A request of the service's, to answer with answerRequest (./rpc.ts) on the lane. */
export interface LaneAnswerRequest {
  type: 'answer';
  id: number;
  /** The method's localName. */
  method: string;
  data: Uint8Array;
  encoding: string | undefined;
  limit: number;
  requestId: string;
  /** The caller's deadline (epoch ms; both threads share the clock). */
  deadline: number | undefined;
}

/** The lane's answer to a LaneAnswerRequest: the reply's bytes or the error it is answered with. */
export interface LaneAnswered {
  type: 'answered';
  id: number;
  data?: Uint8Array;
  gzipped?: boolean;
  error?: { kind: ErrorKind; message: string; details: string[] };
}

/** A message of a lane's own (the engine's snapshot decodes): a type and, for a reply, the id asked with. */
export interface LaneMessage {
  type: string;
  /** Numbers the service's thread's `ask`; the thread's answer carries it back. */
  id?: number;
  /** Numbers the lane thread's own `ask` (lane-thread.ts)... */
  question?: number;
  /** ...and the service's answer to it (`onThreadQuestion`) carries it back. */
  answers?: number;
  [field: string]: unknown;
}

/**
 * The smallest filter list or file a lane takes (bytes of the request): about
 * 25 filters of a few conditions, 2 to 4 ms of an event loop to decode and
 * check. The gateway's lane counts the HTTP body, the rules lane the bus
 * message (protobuf, smaller than its JSON; gzipped past 64 KB).
 */
export const LANE_MIN_BYTES = 32 * 1024;

/** How long a service waits at its start for its kept lane to be ready (Lane.whenReady). */
export const LANE_START_WAIT_MS = 30_000;

/** Said by the thread once it can take work (see `untilReady`). */
export const LANE_READY = 'ready';
/** Sent to the thread: finish what it holds, then end. */
export const LANE_STOP = 'stop';

export interface Lane {
  /** serveRpc's offload: the lane's methods answered there; undefined for the others. */
  answer: RequestOffload;
  /**
   * Sends `message` with a new id; resolves with the thread's message of that
   * id, or undefined when the thread ended first or `waitMs` passed (the late
   * answer is then dropped).
   */
  ask<R extends LaneMessage>(message: LaneMessage, waitMs?: number): Promise<R | undefined>;
  /**
   * Resolves true once the thread said LANE_READY, false after `waitMs`: a kept
   * lane's service waits for it before it says it is ready itself, so its first
   * calls do not meet the lane's start (never longer: without its lane the
   * service still answers everything).
   */
  whenReady(waitMs: number): Promise<boolean>;
  /**
   * For work that does not travel as messages (an HTTP request to the thread's
   * own server): the thread's LANE_READY message while it is ready (the thread
   * started if need be), undefined while it cannot take work. The lane counts
   * the work as held until `release` (`lost`: the thread did not answer it), so
   * it is not stopped idle under it.
   */
  borrow(): { ready: LaneMessage; release(lost?: boolean): void } | undefined;
  stop(): Promise<void>;
}

export interface LaneOptions {
  /** In the logs: "<name> started". */
  name: string;
  /** The JS file the thread runs (the service runs from dist: a compiled sibling). */
  file: string;
  logger: Logger;
  /**
   * The methods (localNames) answered on the lane, each with the smallest
   * request (bytes as they travel) handed over: a small one costs the
   * service's thread a few milliseconds, and on the lane it would wait behind
   * another shop's large ones (a merchant's 3-filter save behind a flood of
   * 100 × 50 ones). 0: every request of the method (one whose work is large
   * whatever its request: an export, a restore).
   */
  methods: Readonly<Record<string, number>>;
  /** Old-generation heap of the thread. */
  heapMb: number;
  /** Stopped after this long without work; undefined: started at once and kept. */
  idleMs: number | undefined;
  /**
   * Before the thread says LANE_READY: 'queue' hands it work all the same (it
   * answers once it can: a thread that only loads code), 'decline' leaves the
   * work to the service's thread (a thread that first opens connections).
   */
  untilReady: 'queue' | 'decline';
  /**
   * Work in flight when the thread ends: 'rerun' answers it undefined (the
   * service's thread does it again: reads), 'refuse' rejects it `unavailable`
   * (writes: it may have been applied, and a rerun would apply it twice).
   */
  lostWork: 'rerun' | 'refuse';
  /**
   * The thread's own questions (its `ask`, lane-thread.ts): the answer goes back to
   * it. A question whose answer fails is answered `{ type: 'unanswered', error }`.
   */
  onThreadQuestion?: (question: LaneMessage) => Promise<LaneMessage>;
  /** Tests: the thread's environment. */
  env?: NodeJS.ProcessEnv;
  /** The thread's workerData. */
  workerData?: unknown;
  /** How long stop() waits for the thread to finish what it holds before ending it. */
  stopWaitMs?: number;
  /** Tests: how long after a thread died its work stays on the service's thread (5 s). */
  restartPauseMs?: number;
}

/** Served on /metrics as ratesmith_lane_requests_total{lane, where}. */
const laneRequests = metrics.getMeter('ratesmith-lane').createCounter('ratesmith.lane.requests', {
  description:
    "A lane's methods' requests by where they were answered: lane (its thread), here (the " +
    "service's thread: the lane was starting, paused after a crash or stopping), lost (the " +
    'thread ended while holding it).',
});

/** How long after a thread died its work stays on the service's thread. */
const RESTART_PAUSE_MS = 5000;
const NOT_TAKEN = Symbol('not taken');

/** A call refused because the app cannot take it now: load shed, or a lane that died holding it. */
export const BUSY_MESSAGE = 'The app is busy. Please try again in a moment.';

type Settle = (answer: LaneMessage | undefined) => void;

export function startLane(options: LaneOptions): Lane {
  const { logger, name } = options;
  const methods = new Map(Object.entries(options.methods));
  let worker: Worker | undefined;
  /** The current thread's LANE_READY message, once it said it. */
  let ready: LaneMessage | undefined;
  /** Work held outside `pending` (borrow). */
  let borrowed = 0;
  /** Who waits for the thread's LANE_READY (whenReady). */
  const readyWaiters = new Set<() => void>();
  let idle: NodeJS.Timeout | undefined;
  let stopped = false;
  /** No new thread before this time (epoch ms): set when one died. */
  let pausedUntil = 0;
  let nextId = 0;
  /** Work handed to the current thread, by id: settled with its answer, or undefined if it died. */
  const pending = new Map<number, Settle>();

  const settleAll = () => {
    for (const settle of pending.values()) settle(undefined);
    pending.clear();
  };

  const armIdle = () => {
    clearTimeout(idle);
    if (options.idleMs === undefined || pending.size > 0 || borrowed > 0 || !worker) return;
    idle = setTimeout(() => {
      const current = worker;
      if (!current || pending.size > 0 || borrowed > 0) return;
      worker = undefined;
      ready = undefined;
      logger.info(`${name} idle: stopped`);
      current.postMessage({ type: LANE_STOP });
    }, options.idleMs);
    idle.unref();
  };

  const start = (): Worker => {
    ready = undefined;
    const current = new Worker(options.file, {
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
      ...(options.env ? { env: options.env } : {}),
      workerData: options.workerData,
    });
    const answer = (question: number, message: LaneMessage) =>
      current.postMessage({ ...message, answers: question });
    current.on('message', (message: LaneMessage) => {
      if (message.type === LANE_READY) {
        if (worker === current) ready = message;
        for (const wake of readyWaiters) wake();
        readyWaiters.clear();
        armIdle();
        return;
      }
      const { question } = message;
      if (question !== undefined) {
        void Promise.resolve(message)
          .then((asked) => options.onThreadQuestion!(asked))
          .then(
            (reply) => answer(question, reply),
            (err: unknown) => {
              logger.warn({ err: (err as Error).message }, `${name}: a question not answered`);
              answer(question, { type: 'unanswered', error: (err as Error).message });
            },
          );
        return;
      }
      const settle = message.id === undefined ? undefined : pending.get(message.id);
      if (!settle) return;
      pending.delete(message.id!);
      settle(message);
      armIdle();
    });
    current.on('error', (err) => logger.error({ err }, `${name} failed`));
    current.on('exit', (code) => {
      // A thread told to stop (idle, or stop() below) has answered what it held.
      if (worker !== current) return;
      worker = undefined;
      ready = undefined;
      pausedUntil = Date.now() + (options.restartPauseMs ?? RESTART_PAUSE_MS);
      logger.error({ code }, `${name} exited; it starts again with its next work`);
      settleAll();
    });
    logger.info(`${name} started`);
    return current;
  };

  /** The running thread, started if need be; undefined while none may start. */
  const running = (): Worker | undefined => {
    if (stopped) return undefined;
    clearTimeout(idle);
    if (!worker) {
      // A thread that just died is not started again at once: a lane that cannot
      // start (its connections refused) would otherwise cost a thread per call.
      if (Date.now() < pausedUntil) return undefined;
      worker = start();
      armIdle();
    }
    return worker;
  };

  /**
   * Hands `message` to the lane (started if need be): NOT_TAKEN when it cannot
   * take it now, else its answer (undefined if the thread ends first).
   */
  const send = (
    message: LaneMessage & { id: number },
  ): typeof NOT_TAKEN | Promise<LaneMessage | undefined> => {
    const current = running();
    if (!current || (!ready && options.untilReady === 'decline')) return NOT_TAKEN;
    return new Promise((resolve) => {
      pending.set(message.id, resolve);
      current.postMessage(message);
    });
  };

  // A kept lane starts with the service: its start is paid before any merchant waits.
  if (options.idleMs === undefined) running();

  return {
    answer: async ({ method, data, encoding, limit, requestId, deadline }) => {
      const minBytes = methods.get(method.localName);
      // A gzipped request unpacks past the bus's 64 KB: never small.
      if (minBytes === undefined || (data.length < minBytes && !encoding)) return undefined;
      const request: LaneAnswerRequest = {
        type: 'answer',
        id: nextId++,
        method: method.localName,
        data,
        encoding,
        limit,
        requestId,
        deadline,
      };
      const sent = send(request as unknown as LaneMessage & { id: number });
      if (sent === NOT_TAKEN) {
        laneRequests.add(1, { lane: name, where: 'here' });
        return undefined;
      }
      const answer = (await sent) as LaneAnswered | undefined;
      laneRequests.add(1, { lane: name, where: answer ? 'lane' : 'lost' });
      if (!answer) {
        if (options.lostWork === 'refuse') throw new AppError('unavailable', BUSY_MESSAGE);
        return undefined;
      }
      if (answer.error)
        throw new AppError(answer.error.kind, answer.error.message, answer.error.details);
      return { data: answer.data!, gzipped: answer.gzipped! } satisfies PackedReply;
    },
    ask: async <R extends LaneMessage>(message: LaneMessage, waitMs?: number) => {
      const id = nextId++;
      let timer: NodeJS.Timeout | undefined;
      const late =
        waitMs === undefined
          ? undefined
          : new Promise<undefined>((resolve) => {
              timer = setTimeout(() => {
                // Done by the asker instead; the lane's answer, if it comes, is dropped.
                pending.delete(id);
                resolve(undefined);
                armIdle();
              }, waitMs);
            });
      const sent = send({ ...message, id });
      if (sent === NOT_TAKEN) {
        clearTimeout(timer);
        return undefined;
      }
      const answer = await (late ? Promise.race([sent, late]) : sent);
      clearTimeout(timer);
      return answer as R | undefined;
    },
    whenReady: (waitMs) =>
      ready
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(() => {
              readyWaiters.delete(wake);
              resolve(false);
            }, waitMs);
            const wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
            readyWaiters.add(wake);
          }),
    borrow: () => {
      const current = running();
      const info = ready;
      if (!current || !info) {
        laneRequests.add(1, { lane: name, where: 'here' });
        armIdle();
        return undefined;
      }
      borrowed++;
      let released = false;
      return {
        ready: info,
        release: (lost = false) => {
          if (released) return;
          released = true;
          laneRequests.add(1, { lane: name, where: lost ? 'lost' : 'lane' });
          borrowed--;
          armIdle();
        },
      };
    },
    /** Lets the thread answer what it holds (up to stopWaitMs), then ends it. */
    stop: async () => {
      stopped = true;
      clearTimeout(idle);
      const current = worker;
      worker = undefined;
      if (current) {
        const exited = new Promise((resolve) => current.once('exit', resolve));
        current.postMessage({ type: LANE_STOP });
        const timer = setTimeout(() => void current.terminate(), options.stopWaitMs ?? 10_000);
        await exited;
        clearTimeout(timer);
      }
      settleAll();
    },
  };
}
