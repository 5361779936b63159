import { readdirSync, readFileSync } from 'node:fs';
import { connectMongo, createLogger, DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
import { metricSamples } from '../../../../tools/devstack/src/metric-samples';
import { startFaultStack } from '../../../../tools/devstack/src/faults/stack';
import { SERVICE_NODE_OPTIONS } from '../../../../tools/devstack/src/servers';
import { mintSessionToken } from '../../src/auth/session-token';
import { apiClient, SHOP_A, SHOP_B } from '../harness';
import type { ShopStack } from './helpers';

/**
 * The noisy-neighbour suite's app in production's shape: each service its own
 * Node process with the chart's flags (tools/devstack/src/faults/stack.ts),
 * behind one NATS and FerretDB. (The harness runs every service in jest's own
 * process, where every call of every shop waits on one event loop: it cannot
 * show one pod's work slowing another, nor the engine's preview lane.)
 */
/** The services with a lane (docs/architecture.md, "Heavy work off the event loop"). */
export type LaneService = 'gateway' | 'rules' | 'rate-engine';

export interface NoisyStack extends ShopStack {
  /** The gateway's origin. */
  baseUrl: string;
  /** The app secret Shopify signs the callbacks with. */
  secret: string;
  /** A service's /metrics, as samples of the metrics whose names start with `prefix`. */
  metrics(service: LaneService, prefix: string): Promise<ReturnType<typeof metricSamples>>;
  /** The nice value of each thread of a service's process (Linux's /proc). */
  threadPriorities(service: LaneService): number[];
  stop(): Promise<void>;
}

/** The production bounds that protect B, for every service (each reads its own). */
const BOUNDS = {
  API_BODY_LIMIT: '1536kb',
  HEAVY_CALLS_PER_SHOP: '2',
  MAX_IN_FLIGHT: '100',
  CARRIER_HMAC_MODE: 'verify-present',
  CARRIER_RATE_LIMIT: '6000',
  CARRIER_UNSIGNED_RATE_LIMIT: '120',
  OUTCOME_FLUSH_MS: '1000',
};

/** A thread's nice value: the 19th field of /proc/<pid>/task/<tid>/stat. */
function niceOf(pid: number, tid: string): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  // The fields after the command's closing parenthesis begin with the third (state).
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

export async function startNoisyStack(): Promise<NoisyStack> {
  const stack = await startFaultStack({
    demoShops: [SHOP_A, SHOP_B],
    base: 'npm-start',
    env: {
      ...BOUNDS,
      // As the harness: no per-shop API limit, so A is bounded by nothing but its loops.
      API_RATE_LIMIT: '0',
      // NOISY_PROFILE_DIR: every service writes a CPU profile there when the stack stops.
      ...(process.env.NOISY_PROFILE_DIR
        ? {
            NODE_OPTIONS: `${SERVICE_NODE_OPTIONS} --cpu-prof --cpu-prof-dir=${process.env.NOISY_PROFILE_DIR}`,
          }
        : {}),
    },
  });
  const logger = createLogger('noisy-neighbour', 'silent');
  const db = (dbName: string) =>
    connectMongo({ uri: stack.mongo.url, dbName, logger, timeoutMs: 10_000 });
  const dbs = { auth: await db('ratesmith_auth'), rules: await db('ratesmith_rules') };
  const token = (shop = SHOP_A, overrides?: Record<string, unknown>) =>
    mintSessionToken({ shop, apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET, overrides });
  return {
    secret: DEMO_API_SECRET,
    baseUrl: stack.gatewayUrl,
    api: apiClient(stack.gatewayUrl, () => token()),
    token,
    dbs,
    carrierUrl: stack.engineUrl,
    metrics: async (service, prefix) => {
      const res = await fetch(`http://127.0.0.1:${stack.service(service).ports.health}/metrics`, {
        signal: AbortSignal.timeout(10_000),
      });
      return metricSamples(await res.text(), prefix);
    },
    threadPriorities: (service) => {
      const pid = stack.pid(service);
      return readdirSync(`/proc/${pid}/task`).map((tid) => niceOf(pid, tid));
    },
    stop: async () => {
      await Promise.all([dbs.auth.close(), dbs.rules.close()]);
      await stack.stop();
    },
  };
}
