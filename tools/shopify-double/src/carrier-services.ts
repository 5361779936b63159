import { httpReply, type GraphqlDispatcher, type GraphqlResult } from './graphql';

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

/** Shopify's answer when the shop's plan lacks carrier-calculated shipping. */
export const PLAN_ERROR =
  'Carrier Calculated Shipping must be enabled for your store before you can add a carrier service.';

/**
 * How a shop without carrier-calculated shipping refuses: a user error on
 * the mutation (the usual answer), or a bare HTTP 403 (also seen).
 */
export type PlanRefusal = 'user_error' | 'forbidden';

/** Shopify refuses an id that is not a global id of a carrier service before running anything. */
function invalidGlobalId(id: unknown): GraphqlResult | undefined {
  if (typeof id === 'string' && /^gid:\/\/shopify\/DeliveryCarrierService\/\d+$/.test(id))
    return undefined;
  return {
    errors: [
      {
        message: `Invalid global id '${String(id)}'`,
        extensions: { code: 'argumentLiteralsIncompatible', typeName: 'CoercionError' },
      },
    ],
  };
}

/**
 * The carrier-service operations of the Admin GraphQL API
 * (carrierServiceCreate/Update/Delete, carrierService, carrierServices), with
 * their payload and userErrors shapes, kept per shop.
 */
export class CarrierServicesDouble {
  private readonly byShop = new Map<string, CarrierService[]>();
  /** Shops whose plan lacks carrier-calculated shipping, and how Shopify refuses them. */
  private readonly withoutPlan = new Map<string, PlanRefusal>();
  private nextId = 1000;
  private readonly removedListeners: ((shop: string, id: string) => void)[] = [];

  constructor(graphql: GraphqlDispatcher) {
    // Arguments come resolved (variables or literals); the dispatcher has checked their types.
    graphql.register(
      'carrierServiceCreate',
      (_v, { shop, args = {} }) =>
        this.refusedForPlan(shop, 'carrierServiceCreate') ?? {
          data: { carrierServiceCreate: this.create(shop, (args.input ?? {}) as Input) },
        },
    );
    graphql.register('carrierServiceUpdate', (_v, { shop, args = {} }) => {
      const input = (args.input ?? {}) as Input;
      const invalid = invalidGlobalId(input.id);
      if (invalid) return invalid;
      // Shopify refuses to (re)activate without the plan; other changes go through.
      const refused = input.active === true && this.refusedForPlan(shop, 'carrierServiceUpdate');
      return refused || { data: { carrierServiceUpdate: this.update(shop, input) } };
    });
    graphql.register('carrierServiceDelete', (_v, { shop, args = {} }) => ({
      data: { carrierServiceDelete: this.remove(shop, String(args.id ?? '')) },
    }));
    graphql.register(
      'carrierService',
      (_v, { shop, args = {} }) =>
        invalidGlobalId(args.id) ?? {
          data: { carrierService: this.list(shop).find((s) => s.id === args.id) ?? null },
        },
    );
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

  /**
   * The shop's plan loses (or gains) carrier-calculated shipping. Losing it
   * deactivates the app's carrier services, as a plan downgrade does.
   */
  setCarrierCalculatedShipping(
    shop: string,
    enabled: boolean,
    refusal: PlanRefusal = 'user_error',
  ): void {
    if (enabled) {
      this.withoutPlan.delete(shop);
      return;
    }
    this.withoutPlan.set(shop, refusal);
    this.deactivate(shop);
  }

  /** Every carrier service of the shop turns inactive: checkout stops calling them. */
  deactivate(shop: string): void {
    for (const service of this.byShop.get(shop) ?? []) service.active = false;
  }

  /** The shop's active service with that name, the one checkout calls; undefined if none. */
  activeService(shop: string, name: string): CarrierService | undefined {
    return this.list(shop).find((s) => s.name === name && s.active);
  }

  /** Shopify drops an app's carrier services when the app is uninstalled. */
  clear(shop: string): void {
    const gone = this.byShop.get(shop) ?? [];
    this.byShop.delete(shop);
    for (const s of gone) this.notifyRemoved(shop, s.id);
  }

  /** Called with each carrier service that goes (deleted, app uninstalled): delivery profiles drop it. */
  onRemoved(listener: (shop: string, id: string) => void): void {
    this.removedListeners.push(listener);
  }

  private notifyRemoved(shop: string, id: string): void {
    for (const listener of this.removedListeners) listener(shop, id);
  }

  private refusedForPlan(shop: string, field: string): GraphqlResult | undefined {
    const refusal = this.withoutPlan.get(shop);
    if (!refusal) return undefined;
    if (refusal === 'forbidden') return httpReply(403, { errors: [{ message: 'Forbidden' }] });
    return {
      data: {
        [field]: {
          carrierService: null,
          userErrors: [{ field: null, message: PLAN_ERROR, code: 'CARRIER_SERVICE_CREATE_FAILED' }],
        },
      },
    };
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
    this.notifyRemoved(shop, id);
    return { deletedId: id, userErrors: [] };
  }
}
