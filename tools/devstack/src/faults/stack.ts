import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
import { startShopifyDouble, type ShopifyDouble } from '@ratesmith/shopify-double';
import { makeBusTls, newBusUsers } from '../bus';
import {
  SERVICES_IN_START_ORDER,
  ServiceReplica,
  type ServiceName,
  type SharedEnv,
} from '../cluster-services';
import { freePort, startFerretDb, startNatsServer, type RunningServer } from '../servers';
import { startFaultProxy, type FaultProxy } from './network';
import { childPid, freeze, requireChildPid, thaw } from './processes';

/**
 * The whole app on one NATS server for fault tests: NATS (a user per
 * service, TLS), FerretDB behind a fault proxy, the Shopify double behind
 * another, and one process of each service (the replicas of
 * tools/devstack/src/cluster-services.ts). Every piece can be killed,
 * frozen and restarted on the same port and data; the proxies can delay or
 * black-hole what goes through them.
 */
export interface FaultyServer {
  readonly url: string;
  readonly port: number;
  pid(): number;
  running(): boolean;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
  freeze(): void;
  thaw(): void;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function faulty(start: () => Promise<RunningServer>): Promise<FaultyServer> {
  let server = await start();
  const running = () => server.process.exitCode === null && server.process.signalCode === null;
  return {
    url: server.url,
    port: server.port,
    pid: () => server.process.pid!,
    running,
    kill: async () => {
      if (!running()) return;
      const exited = new Promise((done) => server.process.once('exit', done));
      server.process.kill('SIGKILL');
      await exited;
    },
    freeze: () => freeze(server.process.pid!),
    thaw: () => thaw(server.process.pid!),
    restart: async () => {
      if (running()) throw new Error('still running: kill it first');
      server = await start();
    },
    stop: async () => {
      if (running()) thaw(server.process.pid!);
      await server.stop();
    },
  };
}

export interface FaultStack {
  dir: string;
  nats: FaultyServer;
  mongo: FaultyServer;
  /** Between the services and FerretDB. */
  mongoProxy: FaultProxy;
  double: ShopifyDouble;
  /** Between auth and the double: a slow or silent Shopify. */
  shopifyProxy: FaultProxy;
  service(name: ServiceName): ServiceReplica;
  /** The pid of a service's process, to freeze it. */
  pid(name: ServiceName): number;
  freeze(name: ServiceName): void;
  thaw(name: ServiceName): void;
  /** The gateway's and the engine's URLs. */
  gatewayUrl: string;
  engineUrl: string;
  stop(): Promise<void>;
}

export interface FaultStackOptions {
  demoShops: string[];
  /** Anything else every service gets (rate limits off by default). */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export async function startFaultStack(options: FaultStackOptions): Promise<FaultStack> {
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-faults-'));
  const users = newBusUsers();
  const tls = makeBusTls(join(dir, 'tls'));
  const stoppers: (() => Promise<void>)[] = [];
  const frozen = new Set<ServiceName>();
  const replicas = {} as Record<ServiceName, ServiceReplica>;
  const stopAll = async () => {
    for (const name of frozen) {
      const pid = childPid(process.pid, mainOf(name));
      if (pid !== undefined) thaw(pid);
    }
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const natsPort = await freePort();
    const mongoPort = await freePort();
    const [nats, mongo] = await Promise.all([
      faulty(() => startNatsServer({ port: natsPort, storeDir: join(dir, 'nats'), users, tls })),
      faulty(() => startFerretDb({ port: mongoPort, dataDir: join(dir, 'ferretdb') })),
    ]);
    stoppers.push(nats.stop, mongo.stop);
    const mongoProxy = await startFaultProxy({ port: mongo.port });
    stoppers.push(mongoProxy.stop);
    const double = await startShopifyDouble({ apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET });
    stoppers.push(() => double.stop());
    const shopifyProxy = await startFaultProxy({ port: double.port });
    stoppers.push(shopifyProxy.stop);

    const [gatewayPort, enginePort] = [await freePort(), await freePort()];
    const shared: SharedEnv = {
      natsUrl: nats.url,
      mongoUri: `${mongoProxy.url('mongodb')}/`,
      users,
      tls,
      shopifyOrigin: shopifyProxy.url('http'),
      demoShops: options.demoShops,
      appUrl: `http://localhost:${gatewayPort}`,
      rateEngineUrl: `http://localhost:${enginePort}`,
      extra: {
        SNAPSHOT_RETRY_MS: '1000',
        CARRIER_RATE_LIMIT: '0',
        API_RATE_LIMIT: '0',
        PUBLIC_RATE_LIMIT: '0',
        ...options.env,
      },
    };
    for (const name of SERVICES_IN_START_ORDER) {
      const port =
        name === 'gateway' ? gatewayPort : name === 'rate-engine' ? enginePort : undefined;
      const replica = await ServiceReplica.create(name, 0, shared, join(dir, 'logs'), port);
      replicas[name] = replica;
      stoppers.push(() => replica.stop());
      replica.start();
      await replica.waitReady(90_000);
      options.log?.(`${name} ready`);
    }
    const pid = (name: ServiceName) => requireChildPid(process.pid, mainOf(name));
    return {
      dir,
      nats,
      mongo,
      mongoProxy,
      double,
      shopifyProxy,
      service: (name) => replicas[name],
      pid,
      freeze: (name) => {
        freeze(pid(name));
        frozen.add(name);
      },
      thaw: (name) => {
        thaw(pid(name));
        frozen.delete(name);
      },
      gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
      engineUrl: `http://127.0.0.1:${enginePort}`,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

const mainOf = (name: ServiceName) => join('services', name, 'dist', 'main.js');
