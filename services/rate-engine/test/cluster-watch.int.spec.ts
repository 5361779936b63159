import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import {
  newBusUsers,
  startNatsCluster,
  type NatsCluster,
  type NatsClusterNode,
} from '@ratesmith/devstack';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { connectNats, createLogger, type NatsConnection } from '@ratesmith/kit';
import { loadConfig } from '../src/config';
import { startRateEngine } from '../src/service';
import { always, CART_A, filter, request, snapshot } from './fixtures/cases';
import { callCarrier, newRateKey, SECRET, waitFor } from './helpers';

/**
 * On a 3-node NATS cluster the engine reads the snapshot bucket with direct
 * gets (services/kit/src/bucket-feed.ts), which any of the bucket's replicas
 * may answer, and creates no consumer (the engine's bus user may not create
 * one: docs/security.md). When a node dies, a change saved after the loss must
 * reach the engine within seconds all the same (a read cut off mid-call is
 * asked again, and the watcher starts over when it stays behind the bucket:
 * services/rate-engine/src/snapshots/watcher.ts).
 */
// The bucket the engine's NATS user may read.
const BUCKET = SNAPSHOT_BUCKET;
const STREAM = `KV_${BUCKET}`;
const SHOP = 'watch-shop.myshopify.com';
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
const users = newBusUsers();
const rateKey = newRateKey();
const dir = mkdtempSync(join(tmpdir(), 'ratesmith-watch-'));
let cluster: NatsCluster;
let admin: NatsConnection;
let jsm: JetStreamManager;
let kv: KV;
let engineNc: NatsConnection | undefined;
let engine: Awaited<ReturnType<typeof startRateEngine>> | undefined;

const put = (version: number, dollars: number) =>
  kv.put(
    SHOP,
    JSON.stringify({
      ...snapshot({ filters: [filter(always(), 1, dollars)] }),
      shop: SHOP,
      version,
      rateKey,
    }),
  );

async function quote(): Promise<string | undefined> {
  const res = await callCarrier(`http://127.0.0.1:${engine!.port}`, rateKey, request(CART_A));
  return res.json?.rates?.[0]?.total_price;
}

/** The engine, connected to `node` only, as the rate-engine user; answers once ready. */
async function startEngineOn(node: NatsClusterNode): Promise<void> {
  engineNc = await connectNats({
    url: node.url,
    name: 'rate-engine',
    logger,
    nkeySeed: users['rate-engine'].seed,
  });
  const config = loadConfig({
    NATS_URL: node.url,
    SHOPIFY_API_SECRET: SECRET,
    SNAPSHOT_BUCKET: BUCKET,
    CARRIER_PORT: '0',
    JETSTREAM_REPLICAS: '3',
  });
  engine = await startRateEngine({ config, logger, nc: engineNc, host: '127.0.0.1' });
  await waitFor(() => engine!.ready(), 20_000);
}

async function stopEngine(): Promise<void> {
  await engine?.stop();
  await engineNc?.close();
  engine = engineNc = undefined;
}

/** The node leading JetStream's metadata (where consumers are created), from the nodes' logs. */
function metaLeader(): string | undefined {
  return cluster.nodes.find((node) => {
    const lines = readFileSync(join(dir, `${node.name}.log`), 'utf8')
      .split('\n')
      .filter((line) => /metadata leader/.test(line));
    return /Self is new JetStream cluster metadata leader/.test(lines.at(-1) ?? '');
  })?.name;
}

/** Moves the bucket's leadership until it is on `node` (a step-down elects another peer). */
async function bucketLeaderTo(node: string): Promise<void> {
  await waitFor(async () => {
    const leader = (await jsm.streams.info(STREAM)).cluster?.leader;
    if (leader === node) return true;
    await admin.request(`$JS.API.STREAM.LEADER.STEPDOWN.${STREAM}`, undefined, { timeout: 2000 });
    await new Promise((r) => setTimeout(r, 500));
    return false;
  }, 30_000);
}

beforeAll(async () => {
  cluster = await startNatsCluster({ dir, users });
  admin = await connectNats({
    url: cluster.url,
    name: 'admin',
    logger,
    nkeySeed: users.admin.seed,
  });
  await waitFor(async () => {
    try {
      jsm = await jetstreamManager(admin, { timeout: 1000 });
      kv = await new Kvm(admin).create(BUCKET, { history: 1, replicas: 3 });
      return true;
    } catch {
      return false;
    }
  }, 30_000);
  await put(1, 1);
}, 60_000);

afterAll(async () => {
  await stopEngine();
  await admin?.close();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('reads the bucket without a consumer, and picks up a save within seconds after a node dies', async () => {
  // The engine on the node leading both JetStream's metadata and the bucket, so the node
  // lost leads nothing and the save needs no election; the lost node is one of the
  // bucket's replicas, which answered direct gets until then.
  const leader = cluster.node(metaLeader()!);
  await bucketLeaderTo(leader.name);
  await startEngineOn(leader);
  expect(await quote()).toBe('100');
  expect(await jsm.consumers.list(STREAM).next()).toEqual([]);

  const lost = cluster.nodes.find((node) => node.name !== leader.name)!;
  await lost.kill();
  await waitFor(
    () =>
      put(2, 2).then(
        () => true,
        () => false,
      ),
    20_000,
  );
  const saved = Date.now();
  await waitFor(async () => (await quote()) === '200', 60_000);
  expect(Date.now() - saved).toBeLessThan(15_000);
  expect(await jsm.consumers.list(STREAM).next()).toEqual([]);
}, 120_000);
