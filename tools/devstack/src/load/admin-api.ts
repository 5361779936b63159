import { sentCondition, sentFilter } from '@ratesmith/contracts/testing';
import { answerBody } from '../faults/app-calls';
import type { LoadRequest } from './generate';

/**
 * The admin API calls of the load suite, as the editor makes them, with a
 * demo session token the caller keeps fresh (tokens live 60 s).
 */

/** A Save All body: `filters` filters of `conditions` conditions each (a ruleset holds 100 at most). */
export function largeRuleset(filters = 100, conditions = 10) {
  const fields = [
    () => sentCondition('cart_price', 'less_than', '50'),
    () => sentCondition('shipping_country', 'equal', 'US'),
    () => sentCondition('cart_retail_product_count', 'greater_than', '2'),
  ];
  return {
    rules: Array.from({ length: filters }, (_, f) =>
      sentFilter({
        name: `Filter ${f + 1}`,
        raw_query: {
          condition: 'AND',
          rules: Array.from({ length: conditions }, (_, c) => fields[(f + c) % fields.length]!()),
        },
      }),
    ),
  };
}

/** A cart for the rate preview, in Shopify's rate-request shape (cents). */
export const previewCart = {
  rate: {
    destination: { country: 'US' },
    currency: 'USD',
    items: [{ price: 1250, quantity: 2, product_id: 123, variant_id: 456, name: 'Hat' }],
  },
};

export class AdminCalls {
  private token = '';
  private tokenAt = 0;

  constructor(
    readonly gatewayUrl: string,
    readonly shop: string,
  ) {}

  /** Gets a new session token from the demo endpoint. */
  async refreshToken(): Promise<void> {
    const res = await fetch(`${this.gatewayUrl}/demo/session-token?shop=${this.shop}`);
    if (!res.ok) throw new Error(`no demo session token: ${res.status}`);
    this.token = ((await res.json()) as { token: string }).token;
    this.tokenAt = Date.now();
  }

  request(label: string, method: string, path: string, body?: unknown): LoadRequest {
    return {
      label,
      method,
      url: `${this.gatewayUrl}${path}`,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
  }

  /**
   * One call, its status and JSON body (for setup and checks). Session tokens live
   * 60 s: one older than 30 s is renewed first (a busy machine stretches a measured run).
   */
  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    if (Date.now() - this.tokenAt > 30_000) await this.refreshToken();
    const req = this.request('', method, path, body);
    const res = await fetch(req.url, { method, headers: req.headers, body: req.body });
    return { status: res.status, body: await answerBody(res) };
  }
}

/**
 * The mix of the admin load run, per 50 requests: the reads the editor makes
 * on every page (list, filters, settings) most, previews, toggles of a second
 * ruleset, settings saves, and one Save All of the large ruleset (a merchant
 * saves far less often than the editor reads), interleaved evenly.
 */
export function adminMix(calls: AdminCalls, ids: { main: string; spare: string }) {
  const saveBody = largeRuleset();
  const settings = { carrier_name: 'Ratesmith', carrier_description: 'Rules' };
  const kinds: [number, () => LoadRequest][] = [
    [10, () => calls.request('list rulesets', 'GET', '/api/global-rules')],
    [
      10,
      () => calls.request('get filters', 'GET', `/api/global-rules/rules?globalRuleId=${ids.main}`),
    ],
    [10, () => calls.request('settings read', 'GET', '/api/settings')],
    [8, () => calls.request('preview', 'POST', '/api/rate-preview', previewCart)],
    [6, () => calls.request('settings write', 'POST', '/api/settings', settings)],
    [5, () => calls.request('toggle', 'GET', `/api/global-rules/${ids.spare}/toggle`)],
    [
      1,
      () =>
        calls.request(
          'save all (100×10)',
          'POST',
          `/api/global-rules/update/${ids.main}`,
          saveBody,
        ),
    ],
  ];
  // Round-robin over the kinds while each has turns left: reads spread across the cycle.
  const left = kinds.map(([n]) => n);
  const cycle: (() => LoadRequest)[] = [];
  while (left.some((n) => n > 0))
    kinds.forEach(([, make], k) => {
      if (left[k]! > 0) {
        left[k]!--;
        cycle.push(make);
      }
    });
  return (i: number) => cycle[i % cycle.length]!();
}
