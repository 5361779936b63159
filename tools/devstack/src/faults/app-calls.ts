import { DEMO_API_SECRET } from '@ratesmith/kit';
import { carrierRateRequest, signBody, type ShopifyDouble } from '@ratesmith/shopify-double';

/**
 * The two ways in that fault tests drive: the admin's /api through the
 * gateway (with a fresh demo session token, as the embedded admin has) and
 * Shopify's signed carrier callback to the engine. Each call is bounded, so
 * a hang shows as status 0 after `timeoutMs`, never as a stuck test.
 */
/**
 * An /api answer's body: its JSON, or, where it is not JSON (a proxy's error
 * page, a plain-text 502), its text as `{ message }`, so a check can still read it.
 */
export async function answerBody(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

export interface AdminAnswer {
  status: number;
  body: any;
  /** Time of the /api call itself (the session token is fetched first, not counted). */
  ms: number;
  retryAfter: string | null;
}

export function adminClient(gatewayUrl: string, shop: string, timeoutMs = 15_000) {
  return async (
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<AdminAnswer> => {
    const tokenRes = await fetch(`${gatewayUrl}/demo/session-token?shop=${shop}`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    const { token } = (await tokenRes.json()) as { token: string };
    const started = Date.now();
    try {
      const res = await fetch(`${gatewayUrl}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await answerBody(res);
      return {
        status: res.status,
        body,
        ms: Date.now() - started,
        retryAfter: res.headers.get('retry-after'),
      };
    } catch (err) {
      return {
        status: 0,
        body: { message: (err as Error).message },
        ms: Date.now() - started,
        retryAfter: null,
      };
    }
  };
}

export type AdminClient = ReturnType<typeof adminClient>;

/**
 * Calls `path` until it answers 200 (bounded), as a merchant reloads: the first
 * call installs the shop (OAuth with the double, the carrier service), which
 * can outlast the gateway's NATS timeout on a busy machine.
 */
export async function untilOk(api: AdminClient, path: string, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const answer = await api(path);
    if (answer.status === 200) return answer;
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `${path} did not answer 200 within ${timeoutMs} ms: ${JSON.stringify(answer)}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A filter every cart matches: the shop's rate is `dollars`. */
export function flatFeeFilter(dollars: number) {
  return {
    name: 'Flat fee',
    raw_query: {
      condition: 'AND',
      rules: [{ type: 'condition', field: 'cart_price', operator: 'greater_than', value: 0 }],
    },
    action_type: 1,
    action_data: dollars,
  };
}

/**
 * Installs the shop (its first /api call does, in demo mode), creates and
 * enables a ruleset with a flat fee, and returns the ruleset and the rate
 * key of the carrier service the app registered with the double.
 */
export async function installWithFlatFee(
  api: AdminClient,
  double: ShopifyDouble,
  shop: string,
  dollars: number,
): Promise<{ rulesetId: string; rateKey: string }> {
  await untilOk(api, '/api/global-rules');
  const created = await api('/api/global-rules', { body: { name: 'Faults' } });
  const rulesetId = created.body.rule?.id as string | undefined;
  if (!rulesetId) throw new Error(`no ruleset: ${JSON.stringify(created.body)}`);
  const saved = await api(`/api/global-rules/update/${rulesetId}`, {
    body: { rules: [flatFeeFilter(dollars)] },
  });
  if (saved.status !== 200) throw new Error(`save failed: ${JSON.stringify(saved.body)}`);
  const enabled = await api(`/api/global-rules/${rulesetId}/toggle`);
  if (enabled.body.message !== 'Ruleset enabled.')
    throw new Error(`not enabled: ${JSON.stringify(enabled.body)}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const service = double.carrierServices.list(shop)[0];
    if (service)
      return { rulesetId, rateKey: new URL(service.callbackUrl).pathname.split('/').pop()! };
    if (Date.now() > deadline) throw new Error('no carrier service was registered');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface CallbackAnswer {
  status: number;
  /** The first rate's total_price, when there was one. */
  cents?: number;
  ms: number;
  error?: string;
}

/** One checkout callback, signed as Shopify signs it. */
export async function carrierCallback(
  engineUrl: string,
  shop: string,
  rateKey: string,
  timeoutMs = 10_000,
): Promise<CallbackAnswer> {
  const raw = JSON.stringify(carrierRateRequest());
  const started = Date.now();
  try {
    const res = await fetch(`${engineUrl}/carrier/rates/${rateKey}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-shop-domain': shop,
        'x-shopify-hmac-sha256': signBody(raw, DEMO_API_SECRET),
      },
      body: raw,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let price: string | undefined;
    try {
      price = (JSON.parse(text) as { rates?: { total_price?: string }[] }).rates?.[0]?.total_price;
    } catch {
      price = undefined;
    }
    return {
      status: res.status,
      cents: price === undefined ? undefined : Number(price),
      ms: Date.now() - started,
    };
  } catch (err) {
    return { status: 0, ms: Date.now() - started, error: (err as Error).message };
  }
}

/**
 * Polls the engine until it answers `cents` (`undefined`: no rate at all);
 * the time it took. Throws past `timeoutMs`.
 */
export async function waitForRate(
  engineUrl: string,
  shop: string,
  rateKey: string,
  cents: number | undefined,
  timeoutMs: number,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await carrierCallback(engineUrl, shop, rateKey, 5000);
    if (answer.status === 200 && answer.cents === cents) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `the engine did not answer ${cents} within ${timeoutMs} ms (last: ${JSON.stringify(answer)})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}
