// The preview lane's thread (./lane.ts): no NATS, no telemetry of its own; it turns
// bytes into bytes for the engine's thread, which keeps the connection, the spans and
// the metrics of every request.
import { rateEngineV1 } from '@ratesmith/contracts';
import { createLogger, decodeSnapshot, serveLaneThread } from '@ratesmith/kit';
import { compileSnapshot, parseSnapshot, Quoter } from '../engine';
import { prepareSnapshot, type SnapshotSource } from '../snapshots/store';
import { createPreviewHandlers } from './handlers';
import type { PreviewLaneMessage } from './lane-messages';

const logger = createLogger('rate-engine', process.env.LOG_LEVEL ?? 'info').child({
  component: 'preview-lane',
});

/** A snapshot's bucket bytes, unpacked and checked (the watch's decode, on this thread). */
const snapshotOf = (value: Uint8Array) => parseSnapshot(decodeSnapshot(value));

type Found = Extract<PreviewLaneMessage, { type: 'snapshot' }>;

/** A shop's snapshot, read fresh from the bucket by the engine's thread, decoded here. */
const source: SnapshotSource = async (shop) => {
  // Unbounded here: the engine's read is a bus request with its timeout, and the
  // preview's deadline ends the wait for its answer.
  const found = (await lane.ask({
    type: 'snapshot?',
    shop,
  } satisfies PreviewLaneMessage)) as unknown as Found;
  if (found.error !== undefined) throw new Error(found.error);
  if (!found.value) return undefined;
  return { snapshot: snapshotOf(found.value), writtenAt: found.writtenAt! };
};

const lane = serveLaneThread({
  service: rateEngineV1.RateEngineService,
  handlers: createPreviewHandlers({
    // Read fresh each time: the lane keeps no snapshots (the engine's cache is checkout's).
    compiled: async (shop) => {
      const found = await source(shop);
      return found && compileSnapshot(found.snapshot);
    },
    source,
    // The program loop: generated code is for the shops checkout quotes often.
    quoter: new Quoter(),
  }),
  logger,
  onMessage: (raw, reply) => {
    const message = raw as unknown as PreviewLaneMessage;
    if (message.type === 'decode') {
      try {
        // Back by structured clone: compiled here, so checkout's thread only stores it.
        reply({
          type: 'decoded',
          id: message.id,
          prepared: prepareSnapshot(snapshotOf(message.value)),
        });
      } catch (err) {
        reply({ type: 'decoded', id: message.id, error: (err as Error).message });
      }
    }
  },
});
