import type { Agent } from 'node:http';
import { DEMO_API_SECRET } from '@ratesmith/kit';
import { carrierRateRequest, signBody } from '@ratesmith/shopify-double';
import { send, type JudgedAnswer } from '../load/generate';

/**
 * The two calls the shutdown suites send under load, each judged: a signed
 * carrier callback (right when it answers the saved fee) and the embedded
 * admin's read of the rulesets list, on a session token fetched ahead as the
 * admin holds one, so each is one request whose start is when it was sent.
 * Every call takes the URL to send to: one process, or the replica an
 * ingress picked.
 */
export function judgedCalls(options: {
  agent: Agent;
  shop: string;
  rateKey: () => string;
  /** The fee checkout must answer, in cents. */
  cents: number;
}) {
  const { agent, shop } = options;
  let sessionToken = '';

  async function callback(engineUrl: string): Promise<JudgedAnswer> {
    const raw = JSON.stringify(carrierRateRequest());
    const s = await send(
      agent,
      {
        label: 'callback',
        method: 'POST',
        url: `${engineUrl}/carrier/rates/${options.rateKey()}`,
        headers: {
          'content-type': 'application/json',
          'x-shopify-shop-domain': shop,
          'x-shopify-hmac-sha256': signBody(raw, DEMO_API_SECRET),
        },
        body: raw,
        readBody: true,
      },
      10_000,
    );
    const price = s.status === 200 ? priceOf(s.body) : undefined;
    return {
      status: s.status,
      ok: s.status === 200 && price === options.cents,
      error: s.error ?? (s.status === 200 ? undefined : s.body),
    };
  }

  async function adminRead(gatewayUrl: string): Promise<JudgedAnswer> {
    const s = await send(
      agent,
      {
        label: 'admin read',
        method: 'GET',
        url: `${gatewayUrl}/api/global-rules`,
        headers: { authorization: `Bearer ${sessionToken}` },
        readBody: true,
      },
      10_000,
    );
    return { status: s.status, ok: s.status === 200, error: s.error ?? s.body?.slice(0, 200) };
  }

  /** A fresh demo session token (they last a minute): call it every 20 s or so. */
  async function refreshSessionToken(gatewayUrl: string): Promise<string> {
    const s = await send(
      agent,
      {
        label: 'token',
        method: 'GET',
        url: `${gatewayUrl}/demo/session-token?shop=${shop}`,
        readBody: true,
      },
      10_000,
    );
    if (s.status === 200) sessionToken = (JSON.parse(s.body!) as { token: string }).token;
    return sessionToken;
  }

  return { callback, adminRead, refreshSessionToken };
}

function priceOf(body: string | undefined): number | undefined {
  try {
    const rates = (JSON.parse(body ?? '') as { rates?: { total_price?: string }[] }).rates;
    return rates?.[0]?.total_price === undefined ? undefined : Number(rates[0].total_price);
  } catch {
    return undefined;
  }
}

/** A connect refused: nothing listened on the port. */
export const refusedAtConnect = (s: { status: number; error?: string }) =>
  s.status === 0 && /ECONNREFUSED/.test(s.error ?? '');
