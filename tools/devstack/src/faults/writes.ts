import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectMongo,
  connectNats,
  createLogger,
  DEMO_API_KEY,
  DEMO_API_SECRET,
  type NatsConnection,
} from '@ratesmith/kit';
import {
  carrierRateRequest,
  signBody,
  startShopifyDouble,
  type ShopifyDouble,
} from '@ratesmith/shopify-double';
import { makeBusTls, newBusUsers } from '../bus';
import {
  SERVICES_IN_START_ORDER,
  ServiceReplica,
  type ServiceName,
  type SharedEnv,
} from '../cluster-services';
import { freePort, startFerretDb, startNatsServer, type RunningServer } from '../servers';

/**
 * The save path as processes, for the write and shutdown fault tests
 * (tools/devstack/test/faults/): one NATS server (a user per service, TLS)
 * that can be killed, frozen and restarted on its port and store, FerretDB,
 * the Shopify double in this process, and the chosen services as processes
 * (tools/devstack/src/cluster-services.ts). The 3-node cluster of
 * tools/devstack/src/cluster-stack.ts is more than a crash of one process
 * needs, and two cores run these tests beside others.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RestartableNats {
  url: string;
  running(): boolean;
  /** SIGKILL: no goodbye to clients. */
  kill(): Promise<void>;
  /** SIGSTOP: sockets stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  /** Starts it again on the same port and store. */
  restart(): Promise<void>;
}

export interface WriteStack {
  dir: string;
  nats: RestartableNats;
  mongo: RunningServer;
  double: ShopifyDouble;
  replicas: Partial<Record<ServiceName, ServiceReplica[]>>;
  replica(service: ServiceName, index?: number): ServiceReplica;
  /** A connection as the tests' own NATS user (no limits); the caller closes it. */
  connectAdmin(): Promise<NatsConnection>;
  stop(): Promise<void>;
}

export interface WriteStackOptions {
  demoShops: string[];
  /** Processes per service; a service left out is not started. */
  services: Partial<Record<ServiceName, number>>;
  /** More environment for every process (SHUTDOWN_TIMEOUT_MS, timeouts). */
  extra?: Record<string, string>;
}

export async function startWriteStack(options: WriteStackOptions): Promise<WriteStack> {
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-writes-'));
  const users = newBusUsers();
  const tls = makeBusTls(join(dir, 'tls'));
  const natsPort = await freePort();
  const natsStore = join(dir, 'nats');
  const startNats = () => startNatsServer({ port: natsPort, storeDir: natsStore, users, tls });
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stoppers.reverse()) await s().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    let server = await startNats();
    const nats: RestartableNats = {
      url: server.url,
      running: () => server.process.exitCode === null && server.process.signalCode === null,
      kill: async () => {
        if (!nats.running()) return;
        const exited = new Promise((done) => server.process.once('exit', done));
        server.process.kill('SIGKILL');
        await exited;
      },
      freeze: () => void (nats.running() && server.process.kill('SIGSTOP')),
      thaw: () => void (nats.running() && server.process.kill('SIGCONT')),
      restart: async () => {
        if (nats.running()) throw new Error('NATS is still running');
        server = await startNats();
      },
    };
    stoppers.push(async () => {
      nats.thaw();
      await server.stop();
    });
    const mongo = await startFerretDb();
    stoppers.push(() => mongo.stop());
    const double = await startShopifyDouble({ apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET });
    stoppers.push(() => double.stop());

    const [gatewayPort, enginePort] = [await freePort(), await freePort()];
    const shared: SharedEnv = {
      natsUrl: server.url,
      mongoUri: mongo.url,
      users,
      tls,
      shopifyOrigin: double.url,
      demoShops: options.demoShops,
      appUrl: `http://localhost:${gatewayPort}`,
      rateEngineUrl: `http://localhost:${enginePort}`,
      extra: {
        // A snapshot NATS did not take is retried every second, not every five.
        SNAPSHOT_RETRY_MS: '1000',
        CARRIER_RATE_LIMIT: '0',
        API_RATE_LIMIT: '0',
        PUBLIC_RATE_LIMIT: '0',
        ...options.extra,
      },
    };
    const replicas: WriteStack['replicas'] = {};
    for (const service of SERVICES_IN_START_ORDER) {
      const count = options.services[service] ?? 0;
      if (count === 0) continue;
      const list = await Promise.all(
        Array.from({ length: count }, (_, i) => {
          const fixed =
            i === 0 && service === 'gateway'
              ? gatewayPort
              : i === 0 && service === 'rate-engine'
                ? enginePort
                : undefined;
          return ServiceReplica.create(service, i, shared, join(dir, 'logs'), fixed);
        }),
      );
      replicas[service] = list;
      stoppers.push(async () => void (await Promise.all(list.map((r) => r.stop()))));
      for (const r of list) r.start();
      await Promise.all(list.map((r) => r.waitReady(90_000)));
    }
    return {
      dir,
      nats,
      mongo,
      double,
      replicas,
      replica: (service, index = 0) => {
        const found = replicas[service]?.[index];
        if (!found) throw new Error(`no ${service} process ${index + 1} in this stack`);
        return found;
      },
      connectAdmin: () =>
        connectNats({
          url: server.url,
          name: 'admin',
          logger: createLogger('faults-admin', 'silent'),
          nkeySeed: users.admin.seed,
          tlsCaFile: tls.caFile,
        }),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface ApiAnswer {
  status: number;
  body: any;
}

/** An admin call through a gateway with a fresh demo session token; a network failure is status 0. */
export async function adminCall(
  gateway: ServiceReplica,
  shop: string,
  path: string,
  init: { method?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<ApiAnswer> {
  const signal = AbortSignal.timeout(init.timeoutMs ?? 15_000);
  try {
    const tokenRes = await fetch(`${gateway.url}/demo/session-token?shop=${shop}`, { signal });
    const { token } = (await tokenRes.json()) as { token: string };
    const res = await fetch(`${gateway.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal,
    });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      return { status: res.status, body: { message: text } };
    }
  } catch (err) {
    return { status: 0, body: { message: (err as Error).message } };
  }
}

/** The filter list of a flat fee: any cart pays `dollars`. */
export function flatFeeFilters(dollars: number) {
  return [
    {
      name: 'Flat fee',
      raw_query: {
        condition: 'AND',
        rules: [{ type: 'condition', field: 'cart_price', operator: 'greater_than', value: 0 }],
      },
      action_type: 1,
      action_data: dollars,
    },
  ];
}

/** Save All of a ruleset with a flat fee; acknowledged means 200 and `status: true`. */
export async function saveFee(
  gateway: ServiceReplica,
  shop: string,
  rulesetId: string,
  dollars: number,
): Promise<ApiAnswer & { acknowledged: boolean }> {
  const answer = await adminCall(gateway, shop, `/api/global-rules/update/${rulesetId}`, {
    body: { rules: flatFeeFilters(dollars) },
  });
  return { ...answer, acknowledged: answer.status === 200 && answer.body?.status === true };
}

export interface QuoteAnswer {
  status: number;
  /** The first rate's total in cents, when there was one. */
  cents?: number;
  error?: string;
}

/** One checkout callback to an engine, signed as Shopify signs it. */
export async function quote(
  engine: ServiceReplica,
  shop: string,
  rateKey: string,
  timeoutMs = 5000,
): Promise<QuoteAnswer> {
  const raw = JSON.stringify(carrierRateRequest());
  try {
    const res = await fetch(`${engine.url}/carrier/rates/${rateKey}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-shop-domain': shop,
        'x-shopify-hmac-sha256': signBody(raw, DEMO_API_SECRET),
      },
      body: raw,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json().catch(() => ({}))) as { rates?: { total_price?: string }[] };
    const price = body.rates?.[0]?.total_price;
    return { status: res.status, cents: price === undefined ? undefined : Number(price) };
  } catch (err) {
    return { status: 0, error: (err as Error).message };
  }
}

/** Polls until the engine answers `cents`; the time it took, or undefined past `timeoutMs`. */
export async function waitForQuote(
  engine: ServiceReplica,
  shop: string,
  rateKey: string,
  cents: number,
  timeoutMs: number,
): Promise<number | undefined> {
  const from = Date.now();
  while (Date.now() - from < timeoutMs) {
    if ((await quote(engine, shop, rateKey)).cents === cents) return Date.now() - from;
    await sleep(50);
  }
  return undefined;
}

export interface FeeShop {
  shop: string;
  rulesetId: string;
  rateKey: string;
}

/**
 * Installs a demo shop (its first admin call), creates a ruleset with a
 * `dollars` fee, makes it the active one and waits for the carrier service
 * the install registers at the double: its rate key is the callback's path.
 */
export async function setUpFeeShop(
  stack: WriteStack,
  shop: string,
  dollars: number,
): Promise<FeeShop> {
  const gateway = stack.replica('gateway');
  const list = await adminCall(gateway, shop, '/api/global-rules');
  if (list.status !== 200) throw new Error(`${shop} did not install: ${list.status}`);
  const created = await adminCall(gateway, shop, '/api/global-rules', { body: { name: 'Fees' } });
  const rulesetId = created.body?.rule?.id as string | undefined;
  if (!rulesetId) throw new Error(`no ruleset for ${shop}: ${JSON.stringify(created.body)}`);
  const saved = await saveFee(gateway, shop, rulesetId, dollars);
  if (!saved.acknowledged) throw new Error(`first save failed: ${JSON.stringify(saved.body)}`);
  const enabled = await adminCall(gateway, shop, `/api/global-rules/${rulesetId}/toggle`);
  if (enabled.body?.message !== 'Ruleset enabled.')
    throw new Error(`the ruleset was not enabled: ${JSON.stringify(enabled.body)}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const service = stack.double.carrierServices.list(shop)[0];
    if (service)
      return { shop, rulesetId, rateKey: new URL(service.callbackUrl).pathname.split('/').pop()! };
    if (Date.now() > deadline) throw new Error(`no carrier service was registered for ${shop}`);
    await sleep(100);
  }
}

/** Reads the rules service's database directly: the fee MongoDB holds for a ruleset. */
export async function openRulesDb(stack: WriteStack) {
  const conn = await connectMongo({
    uri: stack.mongo.url,
    dbName: 'ratesmith_rules',
    logger: createLogger('faults-test', 'silent'),
    timeoutMs: 5000,
  });
  return {
    async storedFee(shop: string, rulesetId: string): Promise<number | undefined> {
      const docs = await conn.db!.collection('rulesets').find({ shop }).toArray();
      const doc = docs.find((d) => String(d._id) === rulesetId);
      const filters = (doc?.filters ?? []) as { action_data?: number }[];
      return filters[0]?.action_data;
    },
    /** The shop's snapshot counter: how many versions were taken. */
    async snapshotVersion(shop: string): Promise<number> {
      const doc = await conn.db!.collection('snapshot_versions').findOne({ shop });
      return (doc?.version as number | undefined) ?? 0;
    },
    close: () => conn.close(),
  };
}
