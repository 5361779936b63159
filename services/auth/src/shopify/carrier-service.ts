import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import { HttpResponseError } from '@shopify/shopify-api';
import { adminGraphql } from './admin-graphql';

/** The name merchants see in their shipping settings. */
export const CARRIER_SERVICE_NAME = 'Ratesmith';

const FIELDS = 'id name callbackUrl active supportsServiceDiscovery';

const CREATE = `mutation RatesmithCarrierServiceCreate($input: DeliveryCarrierServiceCreateInput!) {
  carrierServiceCreate(input: $input) { carrierService { ${FIELDS} } userErrors { field message } }
}`;
const UPDATE = `mutation RatesmithCarrierServiceUpdate($input: DeliveryCarrierServiceUpdateInput!) {
  carrierServiceUpdate(input: $input) { carrierService { ${FIELDS} } userErrors { field message } }
}`;
const LIST = `query RatesmithCarrierServices {
  carrierServices(first: 50) { nodes { ${FIELDS} } }
}`;
const READ = `query RatesmithCarrierService($id: ID!) {
  carrierService(id: $id) { id active }
}`;

/**
 * Why Shopify would not register or activate the carrier service:
 * `needs_plan` when the shop's plan lacks carrier-calculated shipping (a user
 * error naming it, or a bare 403), `error` for anything else.
 */
export class CarrierServiceRefused extends Error {
  constructor(
    readonly reason: 'needs_plan' | 'error',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface Payload {
  carrierService: { id: string; active: boolean } | null;
  userErrors: { field?: string[] | null; message: string }[];
}

const PLAN_MESSAGE = /carrier calculated shipping/i;

function refusedBy(userErrors: Payload['userErrors']): CarrierServiceRefused {
  const message = userErrors.map((e) => e.message).join('; ') || 'no reason given';
  return new CarrierServiceRefused(
    userErrors.some((e) => PLAN_MESSAGE.test(e.message)) ? 'needs_plan' : 'error',
    `Shopify did not register the carrier service: ${message}`,
  );
}

function failed(err: unknown): CarrierServiceRefused {
  if (err instanceof CarrierServiceRefused) return err;
  if (err instanceof HttpResponseError && err.response.code === 403)
    return new CarrierServiceRefused('needs_plan', 'Shopify refused the carrier service (403).', {
      cause: err,
    });
  const detail = err instanceof Error ? err.message : String(err);
  return new CarrierServiceRefused('error', `Shopify could not be asked: ${detail}`, {
    cause: err,
  });
}

export interface CarrierServiceTarget {
  shopify: ShopifyLibrary;
  shop: string;
  accessToken: string;
}

/**
 * Makes sure the shop has exactly our carrier service pointing at
 * `callbackUrl`, active, with service discovery on: the stored id is
 * updated; if that fails in any way (a stale id, a deleted service), one
 * found by name is updated; else one is created. Running it again changes
 * nothing. Answers the service's id and whether Shopify reports it active;
 * throws CarrierServiceRefused.
 */
export async function registerCarrierService(
  options: CarrierServiceTarget & { callbackUrl: string; knownId: string | null },
): Promise<{ id: string; active: boolean }> {
  const { shopify, shop, accessToken, callbackUrl } = options;
  const client = adminGraphql(shopify, shop, accessToken);
  const wanted = {
    name: CARRIER_SERVICE_NAME,
    callbackUrl,
    active: true,
    supportsServiceDiscovery: true,
  };
  const request = async <T>(query: string, variables?: Record<string, unknown>): Promise<T> => {
    try {
      const reply = await client.request<T>(query, variables ? { variables } : {});
      return reply.data as T;
    } catch (err) {
      throw failed(err);
    }
  };
  const update = async (id: string) => {
    const payload = (
      await request<{ carrierServiceUpdate: Payload }>(UPDATE, { input: { id, ...wanted } })
    ).carrierServiceUpdate;
    if (!payload.carrierService) throw refusedBy(payload.userErrors);
    return payload.carrierService;
  };
  /** A plan refusal ends the attempt: listing and creating would be refused the same way. */
  const updateOrFallBack = async (id: string) => {
    try {
      return await update(id);
    } catch (err) {
      if ((err as CarrierServiceRefused).reason === 'needs_plan') throw err;
      return undefined;
    }
  };

  if (options.knownId) {
    const updated = await updateOrFallBack(options.knownId);
    if (updated) return updated;
  }
  const list = await request<{ carrierServices: { nodes: { id: string; name: string }[] } }>(LIST);
  const existing = list.carrierServices.nodes.find((s) => s.name === CARRIER_SERVICE_NAME);
  if (existing) {
    const updated = await updateOrFallBack(existing.id);
    if (updated) return updated;
  }
  const created = (await request<{ carrierServiceCreate: Payload }>(CREATE, { input: wanted }))
    .carrierServiceCreate;
  if (!created.carrierService) throw refusedBy(created.userErrors);
  return created.carrierService;
}

/**
 * What Shopify says of the stored carrier service now: whether it is active
 * (a plan downgrade turns it off), or null when it no longer exists. A
 * read (cost 1): the daily and per-load checks change nothing.
 */
export async function readCarrierService(
  options: CarrierServiceTarget & { id: string },
): Promise<{ active: boolean } | null> {
  try {
    const reply = await adminGraphql(options.shopify, options.shop, options.accessToken).request<{
      carrierService: { id: string; active: boolean } | null;
    }>(READ, { variables: { id: options.id } });
    return reply.data?.carrierService ?? null;
  } catch (err) {
    throw failed(err);
  }
}
