import { createHmac, randomBytes } from 'node:crypto';
import { Kvm } from '@nats-io/kv';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { connectNats, createLogger } from '@ratesmith/kit';
import { freePort, startNatsServer } from '../../src/servers';
import type { LoadRequest } from '../../src/load/generate';
import { benchRequest, benchSnapshot } from '../../../../services/rate-engine/bench/fixture';
import {
  serviceMain,
  startNode,
  waitReady,
  type BenchProcess,
} from '../../../../services/rate-engine/bench/processes';

/**
 * The built rate engine as the benchmarks start it (services/rate-engine/bench),
 * HMAC enforced, with the benchmark's shop in its bucket: what the R1 and
 * memory suites send signed carrier callbacks to.
 */
export interface LoadEngine {
  process: BenchProcess;
  callback: LoadRequest;
  healthUrl: string;
  stop(): Promise<void>;
}

export async function startLoadEngine(): Promise<LoadEngine> {
  const secret = 'load-secret';
  const rateKey = randomBytes(16).toString('hex');
  const nats = await startNatsServer();
  const nc = await connectNats({
    url: nats.url,
    name: 'load',
    logger: createLogger('load', 'silent'),
  });
  let engine: BenchProcess | undefined;
  const stop = async () => {
    await engine?.stop();
    await nc.close();
    await nats.stop();
  };
  try {
    const kv = await new Kvm(nc).create(SNAPSHOT_BUCKET, { history: 1 });
    await kv.put(
      'bench.myshopify.com',
      JSON.stringify(benchSnapshot('bench.myshopify.com', 0, rateKey)),
    );
    const [healthPort, carrierPort] = [await freePort(), await freePort()];
    engine = startNode(serviceMain('rate-engine'), [], {
      NATS_URL: nats.url,
      HEALTH_PORT: String(healthPort),
      CARRIER_PORT: String(carrierPort),
      SHOPIFY_API_SECRET: secret,
      CARRIER_HMAC_MODE: 'enforce',
      // Checkout's own per-shop limit is not what these suites measure.
      CARRIER_RATE_LIMIT: '0',
    });
    await waitReady(healthPort, engine);
    const body = JSON.stringify(benchRequest());
    const callback: LoadRequest = {
      label: 'carrier callback',
      method: 'POST',
      url: `http://127.0.0.1:${carrierPort}/carrier/rates/${rateKey}`,
      headers: {
        'content-type': 'application/json',
        'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
      },
      body,
    };
    const sample = await fetch(callback.url, {
      method: 'POST',
      headers: callback.headers,
      body,
    });
    const text = await sample.text();
    if (sample.status !== 200 || !text.includes('RATESMITH_STANDARD'))
      throw new Error(`the engine did not quote: ${sample.status} ${text}`);
    return {
      process: engine,
      callback,
      healthUrl: `http://127.0.0.1:${healthPort}/livez`,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
