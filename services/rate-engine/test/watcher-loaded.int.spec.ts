import { Kvm, type KV } from '@nats-io/kv';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
import { connectNats, createLogger, type NatsConnection } from '@ratesmith/kit';
import { createEngineMetrics } from '../src/metrics';
import { SnapshotStore } from '../src/snapshots/store';
import { SnapshotWatcher } from '../src/snapshots/watcher';
import { always, filter, snapshot } from './fixtures/cases';
import { newRateKey, waitFor } from './helpers';

/**
 * The watcher's end-of-load hook (the service releases the load's memory there):
 * called once, when the bucket was first read in full, before the store is
 * marked synced (the replica's readiness), and never again for later changes.
 */
const BUCKET = 'snapshots_loaded_hook';
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
let nats: RunningServer;
let nc: NatsConnection;
let kv: KV;

const put = (n: number, version = 1) =>
  kv.put(
    `loaded-${n}.myshopify.com`,
    JSON.stringify({
      ...snapshot({ filters: [filter(always(), 1, 1)] }),
      shop: `loaded-${n}.myshopify.com`,
      version,
      rateKey: newRateKey(),
    }),
  );

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connectNats({ url: nats.url, name: 'test', logger });
  kv = await new Kvm(nc).create(BUCKET, { history: 1 });
  for (let n = 0; n < 5; n++) await put(n);
}, 30_000);

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

it('calls onLoaded once, after the whole bucket and before the store is synced, and onLoadStep every loadStep shops before', async () => {
  const store = new SnapshotStore({
    capacity: 10,
    source: async () => undefined,
    fetchTimeoutMs: 1000,
    logger,
    metrics: createEngineMetrics(),
  });
  const calls: { synced: boolean; known: number }[] = [];
  const steps: number[] = [];
  const watcher = new SnapshotWatcher({
    nc,
    bucket: BUCKET,
    store,
    logger,
    onLoaded: () => calls.push({ synced: store.synced, known: store.knownCount }),
    loadStep: 2,
    onLoadStep: () => steps.push(store.knownCount),
  });
  watcher.start();
  try {
    await waitFor(() => store.synced, 10_000);
    expect(calls).toEqual([{ synced: false, known: 5 }]);
    // Every 2 shops of the first read but its end: the service frees the load's garbage there.
    expect(steps).toEqual([2, 4]);
    // A later change is applied without calling it again.
    await put(0, 2);
    await waitFor(() => store.cached('loaded-0.myshopify.com')?.compiled.version === 2, 10_000);
    expect(calls).toHaveLength(1);
    expect(steps).toEqual([2, 4]);
  } finally {
    await watcher.stop();
  }
});
