import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
import { startShopifyDouble, type ShopifyDouble } from '@ratesmith/shopify-double';
import { makeBusTls, newBusUsers } from '../bus';
import { SERVICES_IN_START_ORDER, ServiceReplica, type ServiceName } from '../cluster-services';
import { freePort, startFerretDb, startNatsServer, type RunningServer } from '../servers';

/**
 * The app as `npm start` runs it, for the load suites: ONE NATS server (a
 * user per service, TLS), FerretDB, the Shopify double, and one process of
 * every service, started with the replicas of the cluster harness
 * (tools/devstack/src/cluster-services.ts) so both run the same environment.
 */
export interface LoadStack {
  dir: string;
  nats: RunningServer;
  mongo: RunningServer;
  double: ShopifyDouble;
  services: Record<ServiceName, ServiceReplica>;
  /** The process id of a service (for RSS), found from outside. */
  pid(service: ServiceName): number;
  stop(): Promise<void>;
}

export async function startLoadStack(options: {
  demoShops: string[];
  /** Environment every service gets on top of `npm start`'s (limits, log level). */
  extra?: Record<string, string>;
  /** Starts FerretDB itself (e.g. with its debug log to count commands). */
  mongo?: () => Promise<RunningServer>;
  /** Progress lines (servers up, each service ready). */
  log?: (line: string) => void;
}): Promise<LoadStack> {
  const log = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-load-'));
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stoppers.reverse()) await s().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const users = newBusUsers();
    const tls = makeBusTls(join(dir, 'tls'));
    const [nats, mongo] = await Promise.all([
      startNatsServer({ users, tls }),
      (options.mongo ?? startFerretDb)(),
    ]);
    stoppers.push(
      () => nats.stop(),
      () => mongo.stop(),
    );
    log(`NATS at ${nats.url}, FerretDB at ${mongo.url}`);
    const double = await startShopifyDouble({ apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET });
    stoppers.push(() => double.stop());
    const [gatewayPort, enginePort] = [await freePort(), await freePort()];
    const shared = {
      natsUrl: nats.url,
      mongoUri: mongo.url,
      users,
      tls,
      shopifyOrigin: double.url,
      demoShops: options.demoShops,
      appUrl: `http://localhost:${gatewayPort}`,
      rateEngineUrl: `http://localhost:${enginePort}`,
      extra: { LOG_LEVEL: 'warn', ...options.extra },
    };
    const services = {} as Record<ServiceName, ServiceReplica>;
    for (const name of SERVICES_IN_START_ORDER) {
      const port =
        name === 'gateway' ? gatewayPort : name === 'rate-engine' ? enginePort : undefined;
      const replica = await ServiceReplica.create(name, 0, shared, join(dir, 'logs'), port);
      services[name] = replica;
      stoppers.push(() => replica.stop());
      replica.start();
      await replica.waitReady(90_000);
      log(`${name} ready`);
    }
    return {
      dir,
      nats,
      mongo,
      double,
      services,
      pid: (name) => childPid(name, services[name].ports.health),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The pid of this process's child that runs a service on a health port: the
 * replica keeps its child private, and /proc says which child has which
 * HEALTH_PORT.
 */
function childPid(service: ServiceName, healthPort: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (
        cmdline.includes(join('services', service, 'dist', 'main.js')) &&
        environ.includes(`HEALTH_PORT=${healthPort}`)
      )
        return Number(entry);
    } catch {
      // gone meanwhile, or not ours
    }
  }
  throw new Error(`no child process runs ${service} on health port ${healthPort}`);
}
