import { connectMongo, createLogger, DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
import { startFaultStack } from '../../../../tools/devstack/src/faults/stack';
import { SERVICE_NODE_OPTIONS } from '../../../../tools/devstack/src/servers';
import { mintSessionToken } from '../../src/auth/session-token';
import { API_SECRET, apiClient, SHOP_A, SHOP_B, startStack } from '../harness';
import type { ShopStack } from './helpers';

/**
 * Where the noisy-neighbour suite runs its shops:
 * - 'one process': the harness, every service in jest's own process (cheap to start:
 *   the short form in `npm test`). Every call of every shop waits on one event loop there,
 *   so it says nothing of one pod's work slowing another pod.
 * - 'processes': production's shape, each service its own Node process with the chart's
 *   flags (tools/devstack/src/faults/stack.ts), behind the same NATS and FerretDB: what
 *   the latency goal is measured on (NOISY_FULL).
 */
export type NoisyShape = 'one process' | 'processes';

export interface NoisyStack extends ShopStack {
  shape: NoisyShape;
  /** The app secret Shopify signs the callbacks with. */
  secret: string;
  stop(): Promise<void>;
}

/** The production bounds that protect B, for every service (each reads its own). */
const GATEWAY_ENV = { API_BODY_LIMIT: '1536kb', HEAVY_CALLS_PER_SHOP: '2', MAX_IN_FLIGHT: '100' };
const ENGINE_ENV = {
  CARRIER_HMAC_MODE: 'verify-present',
  CARRIER_RATE_LIMIT: '6000',
  CARRIER_UNSIGNED_RATE_LIMIT: '120',
  OUTCOME_FLUSH_MS: '1000',
};

export async function startNoisyStack(shape: NoisyShape): Promise<NoisyStack> {
  if (shape === 'one process') {
    const stack = await startStack(GATEWAY_ENV, {}, {}, {}, ENGINE_ENV);
    return {
      shape,
      secret: API_SECRET,
      api: stack.api,
      token: stack.token,
      dbs: stack.dbs,
      carrierUrl: stack.carrierUrl,
      stop: stack.stop,
    };
  }
  const stack = await startFaultStack({
    demoShops: [SHOP_A, SHOP_B],
    base: 'npm-start',
    env: {
      ...GATEWAY_ENV,
      ...ENGINE_ENV,
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
    shape,
    secret: DEMO_API_SECRET,
    api: apiClient(stack.gatewayUrl, () => token()),
    token,
    dbs,
    carrierUrl: stack.engineUrl,
    stop: async () => {
      await Promise.all([dbs.auth.close(), dbs.rules.close()]);
      await stack.stop();
    },
  };
}
