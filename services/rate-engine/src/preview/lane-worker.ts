// The preview lane's thread (./lane.ts). Telemetry first, as in main.ts: its spans
// continue the gateway's trace of each preview.
import { telemetry } from '../telemetry';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { connectNats, createLogger, decodeSnapshot, openSnapshotBucket } from '@ratesmith/kit';
import { loadConfig } from '../config';
import { compileSnapshot, parseSnapshot, Quoter } from '../engine';
import { servePreviews } from '../service';
import { readSnapshot } from '../snapshots/watcher';
import { createPreviewHandlers } from './handlers';

/** Linux's lowest priority; on Linux a thread's priority is its own. */
const LOWEST_PRIORITY = 19;

async function run(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('rate-engine', config.LOG_LEVEL).child({
    component: 'preview-lane',
  });
  try {
    // 0: this thread only. Lowering one's own priority needs no privilege.
    setPriority(0, LOWEST_PRIORITY);
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'preview lane keeps the default priority');
  }
  const nc = await connectNats({
    url: config.NATS_URL,
    // The engine's name: its bus user may read only the engine's inbox.
    name: 'rate-engine',
    logger,
    nkeySeed: config.NATS_NKEY_SEED,
    tlsCaFile: config.NATS_TLS_CA_FILE,
  });
  const kv = await openSnapshotBucket(nc, {
    bucket: config.SNAPSHOT_BUCKET,
    replicas: config.JETSTREAM_REPLICAS,
    timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
  });
  const source = (shop: string) => readSnapshot(kv, shop, logger);
  const rpc = await servePreviews({
    nc,
    logger,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    handlers: createPreviewHandlers({
      // Read fresh each time: the lane keeps no snapshots (the engine's cache is the checkout's).
      compiled: async (shop) => {
        const found = await source(shop);
        return found && compileSnapshot(found.snapshot);
      },
      source,
      // The program loop: generated code is for the shops checkout quotes often.
      quoter: new Quoter(),
    }),
  });
  parentPort!.on('message', (message: { type: string; id?: number; value?: Uint8Array }) => {
    if (message.type === 'decode') {
      // The snapshot goes back by structured clone, as parseSnapshot made it.
      try {
        const snapshot = parseSnapshot(decodeSnapshot(message.value!));
        parentPort!.postMessage({ type: 'decoded', id: message.id, snapshot });
      } catch (err) {
        parentPort!.postMessage({ type: 'decoded', id: message.id, error: (err as Error).message });
      }
      return;
    }
    if (message.type !== 'stop') return;
    void (async () => {
      await rpc.stop();
      await nc.drain();
      await telemetry.shutdown();
      // Ends this thread only.
      process.exit(0);
    })();
  });
  parentPort!.postMessage({ type: 'ready' });
}

run().catch((err: Error) => {
  parentPort!.postMessage({ type: 'failed', error: err.message });
  process.exit(1);
});
