import type { GraphqlDispatcher } from './graphql';

export interface CarrierService {
  id: string;
  name: string;
  formattedName: string;
  callbackUrl: string;
  active: boolean;
  supportsServiceDiscovery: boolean;
}

type Input = Partial<Omit<CarrierService, 'formattedName'>>;

const FIELDS = ['name', 'callbackUrl', 'active', 'supportsServiceDiscovery'] as const;

/**
 * The carrier-service operations of the Admin GraphQL API
 * (carrierServiceCreate/Update/Delete, carrierService, carrierServices), with
 * their payload and userErrors shapes, kept per shop.
 */
export class CarrierServicesDouble {
  private readonly byShop = new Map<string, CarrierService[]>();
  private nextId = 1000;

  constructor(graphql: GraphqlDispatcher) {
    // Arguments come resolved (variables or literals); the dispatcher has checked their types.
    graphql.register('carrierServiceCreate', (_v, { shop, args = {} }) => ({
      data: { carrierServiceCreate: this.create(shop, (args.input ?? {}) as Input) },
    }));
    graphql.register('carrierServiceUpdate', (_v, { shop, args = {} }) => ({
      data: { carrierServiceUpdate: this.update(shop, (args.input ?? {}) as Input) },
    }));
    graphql.register('carrierServiceDelete', (_v, { shop, args = {} }) => ({
      data: { carrierServiceDelete: this.remove(shop, String(args.id ?? '')) },
    }));
    graphql.register('carrierService', (_v, { shop, args = {} }) => ({
      data: { carrierService: this.list(shop).find((s) => s.id === args.id) ?? null },
    }));
    graphql.register('carrierServices', (_v, { shop, args = {} }) => {
      // The app has fewer than a page; `first` still bounds the answer as Shopify's would.
      const all = this.list(shop);
      const nodes = typeof args.first === 'number' ? all.slice(0, args.first) : all;
      return {
        data: {
          carrierServices: {
            nodes,
            edges: nodes.map((node) => ({ cursor: node.id, node })),
            pageInfo: {
              hasNextPage: nodes.length < all.length,
              hasPreviousPage: false,
              startCursor: nodes[0]?.id ?? null,
              endCursor: nodes.at(-1)?.id ?? null,
            },
          },
        },
      };
    });
  }

  /** The shop's carrier services (a copy). */
  list(shop: string): CarrierService[] {
    return (this.byShop.get(shop) ?? []).map((s) => ({ ...s }));
  }

  /** Shopify drops an app's carrier services when the app is uninstalled. */
  clear(shop: string): void {
    this.byShop.delete(shop);
  }

  private create(shop: string, input: Input) {
    const missing = FIELDS.filter((f) => input[f] === undefined || input[f] === null);
    if (missing.length)
      return {
        carrierService: null,
        userErrors: missing.map((f) => ({ field: ['input', f], message: `${f} is required` })),
      };
    const services = this.byShop.get(shop) ?? [];
    if (services.some((s) => s.name === input.name))
      return {
        carrierService: null,
        userErrors: [
          {
            field: ['input', 'name'],
            message: `${input.name} is already configured`,
            code: 'CARRIER_SERVICE_CREATE_FAILED',
          },
        ],
      };
    const service: CarrierService = {
      id: `gid://shopify/DeliveryCarrierService/${this.nextId++}`,
      name: String(input.name),
      formattedName: `${String(input.name)} (Rates provided by app)`,
      callbackUrl: String(input.callbackUrl),
      active: Boolean(input.active),
      supportsServiceDiscovery: Boolean(input.supportsServiceDiscovery),
    };
    this.byShop.set(shop, [...services, service]);
    return { carrierService: { ...service }, userErrors: [] };
  }

  private update(shop: string, input: Input) {
    const service = (this.byShop.get(shop) ?? []).find((s) => s.id === input.id);
    if (!service)
      return {
        carrierService: null,
        userErrors: [
          {
            field: ['input', 'id'],
            message: 'The carrier or app could not be found.',
            code: 'CARRIER_SERVICE_UPDATE_FAILED',
          },
        ],
      };
    for (const f of FIELDS)
      if (input[f] !== undefined && input[f] !== null) Object.assign(service, { [f]: input[f] });
    service.formattedName = `${service.name} (Rates provided by app)`;
    return { carrierService: { ...service }, userErrors: [] };
  }

  private remove(shop: string, id: string) {
    const services = this.byShop.get(shop) ?? [];
    if (!services.some((s) => s.id === id))
      return {
        deletedId: null,
        userErrors: [{ field: ['id'], message: 'The carrier or app could not be found.' }],
      };
    this.byShop.set(
      shop,
      services.filter((s) => s.id !== id),
    );
    return { deletedId: id, userErrors: [] };
  }
}
