import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
import { startShopifyDouble, type ShopifyDouble } from '@ratesmith/shopify-double';
import { makeBusTls, newBusUsers } from '../bus';
import {
  SERVICES_IN_START_ORDER,
  ServiceReplica,
  type Exit,
  type ServiceName,
  type SharedEnv,
} from '../cluster-services';
import {
  dropFerretDbDatabase,
  freePort,
  startFerretDb,
  startNatsServer,
  type RunningServer,
} from '../servers';
import { startFaultProxy, type FaultProxy } from './network';

export type { Exit } from '../cluster-services';
import { childPid, freeze, requireChildPid, thaw } from './processes';
import { timed } from '../stack-timings';

/**
 * The whole app on one NATS server, for the fault suites and the load suites
 * (tools/devstack/test/faults, tools/devstack/test/load): NATS (a user per
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
  /** A service's first replica. */
  service(name: ServiceName): ServiceReplica;
  /** Every replica of a service (`replicas` of the options). */
  replicasOf(name: ServiceName): ServiceReplica[];
  /** The pid of a service's process, to freeze it or read its RSS (one replica only). */
  pid(name: ServiceName): number;
  freeze(name: ServiceName): void;
  thaw(name: ServiceName): void;
  /**
   * SIGTERM, as Kubernetes stops a pod: resolves once the process is gone,
   * with its exit code and how long it took; SIGKILL after `timeoutMs`.
   */
  terminate(name: ServiceName, timeoutMs: number): Promise<Exit>;
  /** The gateway's and the engine's URLs. */
  gatewayUrl: string;
  engineUrl: string;
  stop(): Promise<void>;
}

export interface FaultStackOptions {
  demoShops: string[];
  /**
   * The services' environment under `env`: 'faults' (default) turns the rate
   * limits off and retries snapshots each second; 'npm-start' keeps
   * `npm start`'s limits and logs only warnings, as the load suites measure.
   */
  base?: 'faults' | 'npm-start';
  /** Processes of every service (default 1); replicas after the first get ports of their own. */
  replicas?: number;
  /** Anything else every service gets, over `base`. */
  env?: Record<string, string>;
  /** Starts FerretDB instead of the default (e.g. with its command log); a restart calls it again. */
  mongo?: () => Promise<RunningServer>;
  log?: (line: string) => void;
}

const BASE_ENV = {
  faults: {
    SNAPSHOT_RETRY_MS: '1000',
    CARRIER_RATE_LIMIT: '0',
    API_RATE_LIMIT: '0',
    PUBLIC_RATE_LIMIT: '0',
  },
  'npm-start': { LOG_LEVEL: 'warn' },
};

async function startFaultStackUntimed(options: FaultStackOptions): Promise<FaultStack> {
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-stack-'));
  const users = newBusUsers();
  const tls = makeBusTls(join(dir, 'tls'));
  const stoppers: (() => Promise<void>)[] = [];
  const frozen = new Set<ServiceName>();
  const replicas = {} as Record<ServiceName, ServiceReplica[]>;
  const stopAll = async () => {
    for (const name of frozen) {
      const pid = childPid(process.pid, mainOf(name));
      if (pid !== undefined) thaw(pid);
    }
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    dropFerretDbDatabase(join(dir, 'ferretdb'));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const natsPort = await freePort();
    const mongoPort = await freePort();
    const [nats, mongo] = await Promise.all([
      faulty(() => startNatsServer({ port: natsPort, storeDir: join(dir, 'nats'), users, tls })),
      faulty(
        options.mongo ?? (() => startFerretDb({ port: mongoPort, dataDir: join(dir, 'ferretdb') })),
      ),
    ]);
    stoppers.push(nats.stop, mongo.stop);
    options.log?.(`NATS at ${nats.url}, FerretDB at ${mongo.url}`);
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
      extra: { ...BASE_ENV[options.base ?? 'faults'], ...options.env },
    };
    for (const name of SERVICES_IN_START_ORDER) {
      const port =
        name === 'gateway' ? gatewayPort : name === 'rate-engine' ? enginePort : undefined;
      replicas[name] = [];
      for (let index = 0; index < (options.replicas ?? 1); index++) {
        const replica = await ServiceReplica.create(
          name,
          index,
          shared,
          join(dir, 'logs'),
          index === 0 ? port : undefined,
        );
        replicas[name].push(replica);
        stoppers.push(() => replica.stop());
        replica.start();
      }
      await Promise.all(replicas[name].map((r) => r.waitReady(90_000)));
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
      service: (name) => replicas[name][0]!,
      replicasOf: (name) => replicas[name],
      pid,
      freeze: (name) => {
        freeze(pid(name));
        frozen.add(name);
      },
      thaw: (name) => {
        thaw(pid(name));
        frozen.delete(name);
      },
      terminate: (name, timeoutMs) => replicas[name][0]!.terminate(timeoutMs),
      gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
      engineUrl: `http://127.0.0.1:${enginePort}`,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** startFaultStack, its duration recorded for the slowest-files table (stack-timings.ts). */
export const startFaultStack = timed('fault stack', startFaultStackUntimed);

const mainOf = (name: ServiceName) => join('services', name, 'dist', 'main.js');
