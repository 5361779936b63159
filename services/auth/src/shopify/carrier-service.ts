import { AppError } from '@ratesmith/kit';
import { adminGraphql } from './admin-graphql';
import type { ShopifyApi } from './client';
import { shopifyFailure } from './errors';

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

interface Payload {
  carrierService: { id: string } | null;
  userErrors: { field?: string[]; message: string }[];
}

/**
 * Makes sure the shop has exactly our carrier service pointing at
 * `callbackUrl`, with service discovery on: the stored id is updated; else
 * one found by name is updated; else one is created. Running it again
 * changes nothing. Answers the carrier service id.
 */
export async function registerCarrierService(options: {
  shopify: ShopifyApi;
  shop: string;
  accessToken: string;
  callbackUrl: string;
  knownId: string | null;
}): Promise<string> {
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
      throw shopifyFailure(err, 'Shopify refused the carrier service registration.');
    }
  };
  const update = async (id: string) =>
    (await request<{ carrierServiceUpdate: Payload }>(UPDATE, { input: { id, ...wanted } }))
      .carrierServiceUpdate;

  if (options.knownId) {
    const updated = await update(options.knownId);
    if (updated.carrierService) return updated.carrierService.id;
  }
  const list = await request<{ carrierServices: { nodes: { id: string; name: string }[] } }>(LIST);
  const existing = list.carrierServices.nodes.find((s) => s.name === CARRIER_SERVICE_NAME);
  if (existing) {
    const updated = await update(existing.id);
    if (updated.carrierService) return updated.carrierService.id;
  }
  const created = (await request<{ carrierServiceCreate: Payload }>(CREATE, { input: wanted }))
    .carrierServiceCreate;
  if (!created.carrierService)
    throw new AppError(
      'unavailable',
      `Shopify did not register the carrier service: ${created.userErrors.map((e) => e.message).join('; ')}`,
    );
  return created.carrierService.id;
}
