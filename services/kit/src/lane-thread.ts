import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { DescMethod } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { withDeadline } from './deadline';
import { toAppError } from './errors';
import {
  LANE_NICE,
  LANE_READY,
  LANE_STOP,
  type LaneAnswered,
  type LaneAnswerRequest,
  type LaneMessage,
} from './lane';
import type { Logger } from './logger';
import { answerRequest, type RpcContext } from './rpc';

type AnyHandler = (request: unknown, ctx: RpcContext) => Promise<unknown>;

/**
 * A lane's thread (./lane.ts): lowers its own priority at once, then answers
 * the service's offloaded requests with `handlers` once they are built
 * (LANE_READY is said then), and the lane's own messages with `onMessage`.
 * Its `ask` puts the thread's own questions to the service's thread
 * (`onThreadQuestion` of ./lane.ts).
 * No NATS subscription and no telemetry of its own: the service's thread keeps
 * the spans and the metrics of every request it hands over.
 */
export function serveLaneThread<T extends GenServiceMethods>(options: {
  /** The service whose requests the lane answers; none for a lane whose work comes another way (borrow). */
  service?: GenService<T>;
  /** The handlers of the methods the lane answers; a promise while the thread opens what they need. */
  handlers: Partial<Record<keyof T, unknown>> | Promise<Partial<Record<keyof T, unknown>>>;
  /** Fields of the LANE_READY message (e.g. the port of the thread's own server). */
  readyInfo?: () => Record<string, unknown>;
  logger: Logger;
  /** The lane's own messages (not answers, not stop); `reply` posts back. */
  onMessage?: (message: LaneMessage, reply: (message: LaneMessage) => void) => void;
  /** Before the thread ends on LANE_STOP, after the answers it holds were sent. */
  onStop?: () => Promise<void>;
}): {
  /** The service's answer to `question`, or undefined after `waitMs` (no bound without it). */
  ask(question: LaneMessage, waitMs?: number): Promise<LaneMessage | undefined>;
} {
  const port = parentPort;
  if (!port) throw new Error('serveLaneThread runs in a worker thread');
  const { logger } = options;
  try {
    // 0: this thread only.
    setPriority(0, LANE_NICE);
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'lane keeps the default priority');
  }
  const reply = (message: LaneMessage | LaneAnswered) => port.postMessage(message);
  const methods = new Map<string, DescMethod>(
    (options.service?.methods ?? []).map((m) => [m.localName, m as DescMethod]),
  );
  const handlers = Promise.resolve(options.handlers);
  const inFlight = new Set<Promise<void>>();
  /** The thread's questions waiting for their answers, by number. */
  const asked = new Map<number, (answer: LaneMessage | undefined) => void>();
  let nextQuestion = 0;

  const answer = async (request: LaneAnswerRequest): Promise<void> => {
    try {
      const method = methods.get(request.method);
      const handler = (await handlers)[request.method as keyof T] as AnyHandler | undefined;
      if (!method || !handler) throw new Error(`no method ${request.method} on this lane`);
      const ctx = {
        logger: logger.child({ request_id: request.requestId }),
        requestId: request.requestId,
      };
      const packed = await withDeadline(request.deadline, () =>
        answerRequest(method, handler, request.data, request.encoding, request.limit, ctx),
      );
      reply({ type: 'answered', id: request.id, data: packed.data, gzipped: packed.gzipped });
    } catch (err) {
      const error = toAppError(err);
      if (error.kind === 'internal') logger.error({ err }, 'lane request failed');
      reply({
        type: 'answered',
        id: request.id,
        error: { kind: error.kind, message: error.message, details: error.details },
      });
    }
  };

  port.on('message', (message: LaneMessage) => {
    if (message.answers !== undefined) {
      asked.get(message.answers)?.(message);
    } else if (message.type === 'answer') {
      const handled = answer(message as unknown as LaneAnswerRequest).finally(() =>
        inFlight.delete(handled),
      );
      inFlight.add(handled);
    } else if (message.type === LANE_STOP) {
      void Promise.allSettled([...inFlight])
        .then(() => options.onStop?.())
        .catch((err: unknown) => logger.error({ err }, 'lane did not stop cleanly'))
        .finally(() => {
          port.close();
          process.exit(0);
        });
    } else options.onMessage?.(message, reply);
  });
  handlers.then(
    () => reply({ ...options.readyInfo?.(), type: LANE_READY }),
    (err: unknown) => {
      // The service's thread does the work without it; the next work starts a new one.
      logger.error({ err }, 'lane could not start');
      process.exit(1);
    },
  );
  return {
    ask: (question, waitMs) =>
      new Promise((resolve) => {
        const n = nextQuestion++;
        const timer =
          waitMs === undefined ? undefined : setTimeout(() => settle(undefined), waitMs);
        const settle = (answer: LaneMessage | undefined) => {
          clearTimeout(timer);
          asked.delete(n);
          resolve(answer);
        };
        asked.set(n, settle);
        reply({ ...question, question: n });
      }),
  };
}
