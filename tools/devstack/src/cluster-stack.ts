import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import {
  connectNats,
  createLogger,
  DEMO_API_KEY,
  DEMO_API_SECRET,
  type NatsConnection,
} from '@ratesmith/kit';
import { startShopifyDouble, type ShopifyDouble } from '@ratesmith/shopify-double';
import { makeBusTls, newBusUsers } from './bus';
import { startNatsCluster, type NatsCluster } from './cluster';
import {
  SERVICES_IN_START_ORDER,
  ServiceReplica,
  type ServiceName,
  type SharedEnv,
} from './cluster-services';
import { freePort, startFerretDb, type RunningServer } from './servers';
import { timed } from './stack-timings';

/**
 * The whole app on a NATS cluster: a 3-node cluster on loopback (a user per
 * service, TLS), FerretDB, the Shopify double in this process, and
 * `replicas` processes of every service, each with its own NATS user and
 * ports. What tools/devstack/src/cluster-run.ts runs its failures against.
 */
export interface ClusterStack {
  dir: string;
  cluster: NatsCluster;
  mongo: RunningServer;
  double: ShopifyDouble;
  replicas: Record<ServiceName, ServiceReplica[]>;
  /** The tests' own NATS user (no limits), connected to every node. */
  admin: NatsConnection;
  jsm(): Promise<JetStreamManager>;
  /** Another connection as the tests' user, to the nodes `url` lists (e.g. all but one). */
  connectAdmin(url: string): Promise<NatsConnection>;
  stop(): Promise<void>;
}

export interface ClusterStackOptions {
  /** Replicas of each service; 2 unless told. */
  replicas?: number;
  demoShops: string[];
  /** JETSTREAM_REPLICAS of the services. */
  jetstreamReplicas: number;
  /** Runs before the services start, e.g. to leave an asset of an older deployment. */
  beforeServices?: (admin: NatsConnection) => Promise<void>;
  log?: (line: string) => void;
  /** Keep the run's folder (logs of every node and replica) after stopping. */
  keepFiles?: boolean;
}

/** Waits until JetStream answers on the cluster (a metadata leader is elected). */
async function waitForJetStream(nc: NatsConnection, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const jsm = await jetstreamManager(nc, { timeout: 1000 });
      await jsm.getAccountInfo();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function startClusterStackUntimed(options: ClusterStackOptions): Promise<ClusterStack> {
  const log = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-cluster-'));
  const users = newBusUsers();
  const tls = makeBusTls(join(dir, 'tls'));
  const stoppers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    if (options.keepFiles) log(`logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  try {
    mkdirSync(join(dir, 'nats'));
    const [cluster, mongo] = await Promise.all([
      startNatsCluster({ nodes: 3, dir: join(dir, 'nats'), users, tls }),
      startFerretDb(),
    ]);
    stoppers.push(
      () => cluster.stop(),
      () => mongo.stop(),
    );
    log(`NATS cluster at ${cluster.url}; FerretDB at ${mongo.url}`);
    const connectAdmin = (url: string) =>
      connectNats({
        url,
        name: 'admin',
        logger: createLogger('cluster-admin', 'silent'),
        nkeySeed: users.admin.seed,
        tlsCaFile: tls.caFile,
      });
    const admin = await connectAdmin(cluster.url);
    stoppers.push(() => admin.close());
    await waitForJetStream(admin, 30_000);
    await options.beforeServices?.(admin);

    const double = await startShopifyDouble({ apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET });
    stoppers.push(() => double.stop());

    const count = options.replicas ?? 2;
    const [gatewayPort, enginePort] = [await freePort(), await freePort()];
    const shared: SharedEnv = {
      natsUrl: cluster.url,
      mongoUri: mongo.url,
      users,
      tls,
      shopifyOrigin: double.url,
      demoShops: options.demoShops,
      appUrl: `http://localhost:${gatewayPort}`,
      rateEngineUrl: `http://localhost:${enginePort}`,
      extra: {
        JETSTREAM_REPLICAS: String(options.jetstreamReplicas),
        // Snapshots a leader election kept from the bucket are retried every second.
        SNAPSHOT_RETRY_MS: '1000',
        // The run measures failures, not the per-shop request limits.
        CARRIER_RATE_LIMIT: '0',
        API_RATE_LIMIT: '0',
        PUBLIC_RATE_LIMIT: '0',
      },
    };
    const logDir = join(dir, 'logs');
    const replicas = {} as Record<ServiceName, ServiceReplica[]>;
    for (const service of SERVICES_IN_START_ORDER) {
      replicas[service] = await Promise.all(
        Array.from({ length: count }, (_, i) => {
          const fixedPort =
            i === 0 && service === 'gateway'
              ? gatewayPort
              : i === 0 && service === 'rate-engine'
                ? enginePort
                : undefined;
          return ServiceReplica.create(service, i, shared, logDir, fixedPort);
        }),
      );
      stoppers.push(async () => {
        await Promise.all(replicas[service].map((r) => r.stop()));
      });
      for (const replica of replicas[service]) replica.start();
      await Promise.all(replicas[service].map((r) => r.waitReady(90_000)));
      log(`${count} × ${service} ready`);
    }
    return {
      dir,
      cluster,
      mongo,
      double,
      replicas,
      admin,
      jsm: () => jetstreamManager(admin, { timeout: 2000, checkAPI: false }),
      connectAdmin,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** startClusterStack, its duration recorded for the slowest-files table (stack-timings.ts). */
export const startClusterStack = timed('cluster stack', startClusterStackUntimed);
