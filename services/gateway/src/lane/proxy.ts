import { randomBytes } from 'node:crypto';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { ErrorReply } from '@ratesmith/contracts';
import { BUSY_MESSAGE, startLane, type Lane, type Logger } from '@ratesmith/kit';
import type { LaneProxy } from '../app';
import { ctx } from '../http/context';
import { LANE_HEADERS } from './identity';

/**
 * The gateway's lane: kit's lane (services/kit/src/lane.ts) in the gateway's
 * process, for a shop's heavy calls (Save All, restores, imports, exports,
 * previews). Reading a 100 × 50 filter list, checking it (zod) and encoding it
 * for the bus, then decoding and writing out the answer, held the gateway's
 * event loop 100 to 360 ms at a stretch, and every other shop's calls waited
 * behind it (docs/security.md, S14). The lane's thread runs the same /api
 * routes (../app.ts, apiRoutes) on an HTTP server of its own on loopback, with
 * its own NATS connection (./worker.ts); this thread verifies the session,
 * keeps the limits, and passes the request's bytes through (`apiLaneProxy`).
 */

/** Old-generation heap of the lane: a few filter lists at the limits at once. */
const LANE_HEAP_MB = 192;
/** A heavy call's longest silence on the lane's socket (its bus calls end well before). */
const LANE_SOCKET_TIMEOUT_MS = 30_000;

/** The request headers not passed on: the hop's own, the session's (already verified), the lane's. */
const NOT_PASSED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'authorization',
  'cookie',
  'host',
  ...Object.values(LANE_HEADERS),
]);
/** The answer's headers not passed back: the hop's own. */
const NOT_RETURNED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

export interface ApiLane {
  proxy: LaneProxy;
  whenReady: Lane['whenReady'];
  stop(): Promise<void>;
}

export function startApiLane(options: { logger: Logger }): ApiLane {
  const secret = randomBytes(32).toString('hex');
  const lane = startLane({
    name: 'api lane',
    file: join(__dirname, 'worker.js'),
    workerData: { secret },
    logger: options.logger,
    // Its work comes over HTTP (borrow), not as messages.
    methods: {},
    heapMb: LANE_HEAP_MB,
    // Started with the service and kept: its work comes with every large save.
    idleMs: undefined,
    untilReady: 'decline',
    lostWork: 'refuse',
  });
  const agent = new Agent({ keepAlive: true });
  return {
    proxy: apiLaneProxy(lane, secret, agent),
    whenReady: lane.whenReady,
    stop: async () => {
      await lane.stop();
      agent.destroy();
    },
  };
}

function passedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_PASSED.has(name)));
}

/** Passes a request to the lane's server and its answer back; `next()` while the lane cannot take it. */
export function apiLaneProxy(lane: Pick<Lane, 'borrow'>, secret: string, agent?: Agent): LaneProxy {
  return (minBytes) => (req, res, next) => {
    const length = req.headers['content-length'];
    if (minBytes > 0 && length !== undefined && Number(length) < minBytes) return next();
    // The session's middleware ran before (../app.ts): no shop, no lane.
    if (!ctx(res).shop) return next();
    const held = lane.borrow();
    if (!held) return next();
    const context = ctx(res);
    const lost = () => {
      held.release(true);
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      context.logger.warn('the api lane did not answer: refused');
      res.setHeader('Retry-After', '5');
      res.status(503).json({ status: false, message: BUSY_MESSAGE } satisfies ErrorReply);
    };
    const upstream = request(
      {
        host: '127.0.0.1',
        port: held.ready.port as number,
        method: req.method,
        path: req.originalUrl,
        agent,
        timeout: LANE_SOCKET_TIMEOUT_MS,
        headers: {
          ...passedHeaders(req.headers),
          'x-request-id': context.requestId,
          [LANE_HEADERS.secret]: secret,
          [LANE_HEADERS.shop]: context.shop,
          [LANE_HEADERS.user]: context.user ?? '',
        },
      },
      (answer) => {
        res.status(answer.statusCode ?? 502);
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined && !NOT_RETURNED.has(name)) res.setHeader(name, value);
        answer.pipe(res);
        answer.once('end', held.release);
        answer.once('error', lost);
      },
    );
    upstream.once('timeout', () => upstream.destroy(new Error('the api lane timed out')));
    upstream.once('error', lost);
    // The merchant gave up: the lane's work of an unread answer is stopped with it.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
      held.release();
    });
    req.pipe(upstream);
  };
}
