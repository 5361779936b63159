// The preview lane's thread (./lane.ts): no NATS, no telemetry of its own; it turns
// bytes into bytes for the engine's thread, which keeps the connection, the spans and
// the metrics of every request.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { rateEngineV1 } from '@ratesmith/contracts';
import { answerRequest, createLogger, decodeSnapshot, toAppError } from '@ratesmith/kit';
import { compileSnapshot, parseSnapshot, Quoter } from '../engine';
import type { SnapshotSource } from '../snapshots/store';
import { createPreviewHandlers } from './handlers';
import { LANE_NICE, type LaneAnswer, type LaneRequest } from './lane-messages';

const port = parentPort!;
const logger = createLogger('rate-engine', process.env.LOG_LEVEL ?? 'info').child({
  component: 'preview-lane',
});
try {
  // 0: this thread only.
  setPriority(0, LANE_NICE);
} catch (err) {
  logger.warn({ err: (err as Error).message }, 'preview lane keeps the default priority');
}

const reply = (answer: LaneAnswer) => port.postMessage(answer);
/** A snapshot's bucket bytes, unpacked and checked (the watch's decode, on this thread). */
const snapshotOf = (value: Uint8Array) => parseSnapshot(decodeSnapshot(value));

/** Snapshots the engine's thread was asked for, by id of the ask. */
let nextAsk = 0;
const asked = new Map<number, (found: Extract<LaneRequest, { type: 'snapshot' }>) => void>();

/** A shop's snapshot, read fresh from the bucket by the engine's thread, decoded here. */
const source: SnapshotSource = async (shop) => {
  const id = nextAsk++;
  const found = await new Promise<Extract<LaneRequest, { type: 'snapshot' }>>((resolve) => {
    asked.set(id, resolve);
    reply({ type: 'snapshot?', id, shop });
  });
  if (found.error !== undefined) throw new Error(found.error);
  if (!found.value) return undefined;
  return { snapshot: snapshotOf(found.value), writtenAt: found.writtenAt! };
};

const handlers = createPreviewHandlers({
  // Read fresh each time: the lane keeps no snapshots (the engine's cache is checkout's).
  compiled: async (shop) => {
    const found = await source(shop);
    return found && compileSnapshot(found.snapshot);
  },
  source,
  // The program loop: generated code is for the shops checkout quotes often.
  quoter: new Quoter(),
});
const methods = new Map(rateEngineV1.RateEngineService.methods.map((m) => [m.localName, m]));

async function answer(request: Extract<LaneRequest, { type: 'answer' }>): Promise<void> {
  try {
    const method = methods.get(request.method);
    const handler = handlers[request.method as keyof typeof handlers];
    if (!method || !handler) throw new Error(`no method ${request.method}`);
    const packed = await answerRequest(
      method,
      handler as never,
      request.data,
      request.encoding,
      request.limit,
      { logger: logger.child({ request_id: request.requestId }), requestId: request.requestId },
    );
    reply({ type: 'answered', id: request.id, data: packed.data, gzipped: packed.gzipped });
  } catch (err) {
    const error = toAppError(err);
    if (error.kind === 'internal') logger.error({ err }, 'preview failed');
    reply({
      type: 'answered',
      id: request.id,
      error: { kind: error.kind, message: error.message, details: error.details },
    });
  }
}

port.on('message', (message: LaneRequest) => {
  switch (message.type) {
    case 'answer':
      void answer(message);
      break;
    case 'decode':
      try {
        // Back by structured clone, as parseSnapshot made it.
        const snapshot = snapshotOf(message.value);
        reply({ type: 'decoded', id: message.id, snapshot });
      } catch (err) {
        reply({ type: 'decoded', id: message.id, error: (err as Error).message });
      }
      break;
    case 'snapshot':
      asked.get(message.id)?.(message);
      asked.delete(message.id);
      break;
    case 'stop':
      // Ends this thread only; the engine's thread settles what it had handed over.
      port.close();
      process.exit(0);
  }
});
