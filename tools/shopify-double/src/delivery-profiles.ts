import type { CarrierService, CarrierServicesDouble } from './carrier-services';
import {
  COUNTRY_NAMES,
  defaultDeliveryProfiles,
  GidCounter,
  KNOWN_PROVINCES,
} from './delivery-defaults';
import { deliveryProfilesAnswer, parseDeliveryProfiles } from './delivery-json';
import {
  participatingCarriers,
  zoneFor,
  type Condition,
  type Country,
  type DeliveryProfile,
  type Destination,
  type LocationGroupZone,
  type MethodDefinition,
  type Money,
  type WeightUnit,
} from './delivery-rates';
import type { GraphqlContext, GraphqlDispatcher, GraphqlResult } from './graphql';

/**
 * Shopify's delivery profiles per shop (`deliveryProfiles`,
 * `deliveryProfile(id:)`, `deliveryProfileUpdate`) and the merchant's side
 * of them (set, read, add the carrier to zones). A shop no test has set gets
 * `defaultDeliveryProfiles` the first time anything looks.
 */

type Input = Record<string, unknown>;
type UserError = { field: string[] | null; message: string };

const READ_SCOPES = ['read_shipping', 'write_shipping'];

/** Shopify's refusal of a field the token's scopes do not cover. */
function accessDenied(ctx: GraphqlContext, field: string, required: string): GraphqlResult {
  return {
    errors: [
      {
        message: `Access denied for ${field} field. Required access: ${required}.`,
        ...(ctx.field ? { locations: [ctx.field.loc] } : {}),
        path: [ctx.field?.alias ?? field],
        extensions: {
          code: 'ACCESS_DENIED',
          documentation: 'https://shopify.dev/api/usage/access-scopes',
          requiredAccess: required,
        },
      },
    ],
  };
}

function cursorOf(key: string): string {
  return Buffer.from(key).toString('base64url');
}

/** One page of a connection, for `first/last/after/before/reverse`, cursors opaque as Shopify's. */
export function paginate<T>(all: T[], args: Input, key: (item: T) => string) {
  const list = args.reverse === true ? [...all].reverse() : all;
  let start = 0;
  let end = list.length;
  if (typeof args.after === 'string') {
    const i = list.findIndex((x) => cursorOf(key(x)) === args.after);
    start = i < 0 ? list.length : i + 1;
  }
  if (typeof args.before === 'string') {
    const i = list.findIndex((x) => cursorOf(key(x)) === args.before);
    end = i < 0 ? 0 : i;
  }
  let nodes = list.slice(start, Math.max(start, end));
  let hasNextPage = end < list.length;
  let hasPreviousPage = start > 0;
  if (typeof args.first === 'number') {
    hasNextPage ||= nodes.length > args.first;
    nodes = nodes.slice(0, args.first);
  }
  if (typeof args.last === 'number') {
    hasPreviousPage ||= nodes.length > args.last;
    nodes = nodes.slice(Math.max(0, nodes.length - args.last));
  }
  const cursors = nodes.map((n) => cursorOf(key(n)));
  return {
    nodes,
    edges: nodes.map((node, i) => ({ cursor: cursors[i], node })),
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: cursors[0] ?? null,
      endCursor: cursors.at(-1) ?? null,
    },
  };
}

/** Countries of two zones overlap when they name the same country and share a province (or either lists none). */
function overlaps(a: Country, b: Country): boolean {
  if (a.code.restOfWorld || b.code.restOfWorld) return a.code.restOfWorld && b.code.restOfWorld;
  if (a.code.countryCode !== b.code.countryCode) return false;
  if (!a.provinces.length || !b.provinces.length) return true;
  return a.provinces.some((p) => b.provinces.some((q) => q.code === p.code));
}

export class DeliveryProfilesDouble {
  private readonly byShop = new Map<string, DeliveryProfile[]>();
  private readonly ids = new GidCounter(500_000);

  constructor(
    graphql: GraphqlDispatcher,
    private readonly carrierServices: CarrierServicesDouble,
    private readonly currencyOf: (shop: string) => string = () => 'USD',
  ) {
    carrierServices.onRemoved((shop, id) => this.removeCarrier(shop, id));
    graphql.register('deliveryProfiles', (_v, ctx) => {
      if (!this.mayRead(ctx))
        return accessDenied(ctx, 'deliveryProfiles', '`read_shipping` access scope');
      // Every profile of the double is the merchant's own: merchantOwnedOnly filters nothing out.
      const views = this.profilesOf(ctx.shop).map((p) => this.view(ctx.shop, p));
      return { data: { deliveryProfiles: paginate(views, ctx.args ?? {}, (p) => p.id) } };
    });
    graphql.register('deliveryProfile', (_v, ctx) => {
      if (!this.mayRead(ctx))
        return accessDenied(ctx, 'deliveryProfile', '`read_shipping` access scope');
      const found = this.profilesOf(ctx.shop).find((p) => p.id === ctx.args?.id);
      return { data: { deliveryProfile: found ? this.view(ctx.shop, found) : null } };
    });
    graphql.register('deliveryProfileUpdate', (_v, ctx) => {
      if (ctx.scopes && !ctx.scopes.includes('write_shipping'))
        return accessDenied(ctx, 'deliveryProfileUpdate', '`write_shipping` access scope');
      const args = ctx.args ?? {};
      return {
        data: {
          deliveryProfileUpdate: this.update(
            ctx.shop,
            String(args.id),
            (args.profile ?? {}) as Input,
          ),
        },
      };
    });
  }

  private mayRead(ctx: GraphqlContext): boolean {
    return !ctx.scopes || ctx.scopes.some((s) => READ_SCOPES.includes(s));
  }

  // ---- the merchant's side (tests and the HTTP controls) ----------------------------

  /** Replaces a shop's profiles with JSON shaped like the `deliveryProfiles` answer. */
  set(shop: string, profiles: unknown): void {
    this.byShop.set(shop, parseDeliveryProfiles(profiles, this.ids));
  }

  /** A shop's profiles in the `deliveryProfiles` answer's shape (what `set` loads). */
  get(shop: string): { nodes: unknown[] } {
    return structuredClone(deliveryProfilesAnswer(this.profilesOf(shop)));
  }

  /** The shop's profiles as the double keeps them (a copy). */
  profiles(shop: string): DeliveryProfile[] {
    return structuredClone(this.profilesOf(shop));
  }

  /** Back to the default set (a reinstalled shop keeps its profiles: only tests call this). */
  reset(shop: string): void {
    this.byShop.delete(shop);
  }

  /**
   * What a merchant does in Shopify's shipping settings: the carrier service
   * (by name) takes part in these zones (ids, or every zone of every
   * profile), active. Returns the ids of the method definitions it created.
   */
  addCarrierToZones(shop: string, carrierServiceName: string, zoneIds: string[] | 'all'): string[] {
    const service = this.serviceNamed(shop, carrierServiceName);
    const created: string[] = [];
    for (const lgz of this.zones(shop, zoneIds)) {
      const existing = lgz.methodDefinitions.find((m) => this.namesCarrier(m, service.id));
      if (existing) {
        existing.active = true;
        continue;
      }
      const method = this.participantMethod(service, { active: true });
      lgz.methodDefinitions.push(method);
      created.push(method.id);
    }
    return created;
  }

  /** The merchant takes the carrier service out of these zones (or all). */
  removeCarrierFromZones(
    shop: string,
    carrierServiceName: string,
    zoneIds: string[] | 'all',
  ): void {
    const service = this.serviceNamed(shop, carrierServiceName);
    for (const lgz of this.zones(shop, zoneIds))
      lgz.methodDefinitions = lgz.methodDefinitions.filter(
        (m) => !this.namesCarrier(m, service.id),
      );
  }

  /** A carrier service is gone (deleted, app uninstalled): its method definitions go with it. */
  removeCarrier(shop: string, carrierServiceId: string): void {
    for (const p of this.byShop.get(shop) ?? [])
      for (const g of p.profileLocationGroups)
        for (const lgz of g.locationGroupZones)
          lgz.methodDefinitions = lgz.methodDefinitions.filter(
            (m) => !this.namesCarrier(m, carrierServiceId),
          );
  }

  /**
   * The zone a checkout to `to` falls in (the General profile's first
   * location group that ships there) and the carrier services taking part
   * there. No zone: Shopify offers no shipping, so nobody is asked.
   */
  checkoutZone(
    shop: string,
    to: Destination,
  ): { zone: LocationGroupZone; carrierIds: Set<string> } | undefined {
    const general = this.profilesOf(shop).find((p) => p.default);
    for (const group of general?.profileLocationGroups ?? []) {
      const zone = zoneFor(group, to);
      if (zone) return { zone: structuredClone(zone), carrierIds: participatingCarriers(zone) };
    }
    return undefined;
  }

  // ---- internals -----------------------------------------------------------------

  private profilesOf(shop: string): DeliveryProfile[] {
    let profiles = this.byShop.get(shop);
    if (!profiles) {
      profiles = defaultDeliveryProfiles(this.ids, this.currencyOf(shop));
      this.byShop.set(shop, profiles);
    }
    return profiles;
  }

  private serviceNamed(shop: string, name: string): CarrierService {
    const service = this.carrierServices.list(shop).find((s) => s.name === name);
    if (!service) throw new Error(`${shop} has no carrier service named ${name}`);
    return service;
  }

  private zones(shop: string, zoneIds: string[] | 'all'): LocationGroupZone[] {
    const all = this.profilesOf(shop).flatMap((p) =>
      p.profileLocationGroups.flatMap((g) => g.locationGroupZones),
    );
    if (zoneIds === 'all') return all;
    return zoneIds.map((id) => {
      const found = all.find((z) => z.zone.id === id);
      if (!found) throw new Error(`${shop} has no zone ${id}`);
      return found;
    });
  }

  private namesCarrier(m: MethodDefinition, carrierServiceId: string): boolean {
    return (
      m.rateProvider.__typename === 'DeliveryParticipant' &&
      m.rateProvider.carrierService.id === carrierServiceId
    );
  }

  private participantMethod(
    service: CarrierService,
    input: { active?: unknown; name?: unknown; description?: unknown; participant?: Input },
  ): MethodDefinition {
    const p = input.participant ?? {};
    return {
      id: this.ids.id('DeliveryMethodDefinition'),
      name: typeof input.name === 'string' ? input.name : service.name,
      // Unset is inactive: the double never turns a carrier on that nobody turned on.
      active: input.active === true,
      description: typeof input.description === 'string' ? input.description : null,
      rateProvider: {
        __typename: 'DeliveryParticipant',
        id: this.ids.id('DeliveryParticipant'),
        carrierService: { id: service.id },
        adaptToNewServicesFlag: p.adaptToNewServices === true,
        fixedFee: (p.fixedFee as Money | undefined) ? moneyOf(p.fixedFee as Input) : null,
        percentageOfRateFee: typeof p.percentageOfRateFee === 'number' ? p.percentageOfRateFee : 0,
        participantServices: (
          (p.participantServices ?? []) as { name: string; active: boolean }[]
        ).map((s) => ({ name: s.name, active: s.active })),
      },
      methodConditions: [],
    };
  }

  /** A profile as the GraphQL answer shows it: counts computed, connections paged by their arguments. */
  private view(shop: string, p: DeliveryProfile) {
    const zones = p.profileLocationGroups.flatMap((g) => g.locationGroupZones);
    const active = zones.flatMap((z) => z.methodDefinitions.filter((m) => m.active));
    const countryView = (c: Country) => ({
      ...c,
      translatedName: c.name,
      provinces: c.provinces.map((pr) => ({ ...pr, translatedName: pr.name })),
    });
    const services = this.carrierServices.list(shop);
    const serviceOf = (id: string) => services.find((s) => s.id === id);
    const methodView = (m: MethodDefinition) => {
      const rp = m.rateProvider;
      if (rp.__typename !== 'DeliveryParticipant') return m;
      // The participant shows the carrier service as it is now.
      return {
        ...m,
        rateProvider: {
          ...rp,
          carrierService: serviceOf(rp.carrierService.id) ?? rp.carrierService,
        },
      };
    };
    // Eligible (the double's reading): a rate, or a participant whose carrier service is active.
    const eligible = (m: MethodDefinition) =>
      m.rateProvider.__typename === 'DeliveryRateDefinition' ||
      serviceOf(m.rateProvider.carrierService.id)?.active === true;
    return {
      id: p.id,
      name: p.name,
      default: p.default,
      activeMethodDefinitionsCount: active.length,
      locationsWithoutRatesCount: 0,
      originLocationCount: 1,
      zoneCountryCount: new Set(
        zones
          .filter((z) => z.methodDefinitions.some((m) => m.active))
          .flatMap((z) => z.zone.countries.map((c) => c.code.countryCode ?? '*')),
      ).size,
      // `locationGroupId` picks one group; an unknown id gives an empty list.
      profileLocationGroups: (args: Input) =>
        p.profileLocationGroups
          .filter(
            (g) =>
              typeof args.locationGroupId !== 'string' ||
              g.locationGroup.id === args.locationGroupId,
          )
          .map((g) => ({
            locationGroup: {
              id: g.locationGroup.id,
              locationsCount: { count: 1, precision: 'EXACT' },
            },
            countriesInAnyZone: g.locationGroupZones.flatMap((z) =>
              z.zone.countries.map((c) => ({ country: countryView(c), zone: z.zone.name })),
            ),
            locationGroupZones: (args: Input) =>
              paginate(
                g.locationGroupZones.map((z) => ({
                  zone: { ...z.zone, countries: z.zone.countries.map(countryView) },
                  methodDefinitionCounts: {
                    participantDefinitionsCount: z.methodDefinitions.filter(
                      (m) => m.rateProvider.__typename === 'DeliveryParticipant',
                    ).length,
                    rateDefinitionsCount: z.methodDefinitions.filter(
                      (m) => m.rateProvider.__typename === 'DeliveryRateDefinition',
                    ).length,
                  },
                  methodDefinitions: (margs: Input) =>
                    paginate(
                      z.methodDefinitions
                        .filter(
                          (m) =>
                            (margs.type === undefined ||
                              (margs.type === 'PARTICIPANT') ===
                                (m.rateProvider.__typename === 'DeliveryParticipant')) &&
                            (typeof margs.eligible !== 'boolean' || margs.eligible === eligible(m)),
                        )
                        .map(methodView),
                      margs,
                      (m) => m.id,
                    ),
                })),
                args,
                (z) => z.zone.id,
              ),
          })),
    };
  }

  /**
   * `deliveryProfileUpdate`: applied to a copy and kept only when nothing in
   * it fails, so a refused update changes nothing. Parts of the input the
   * double does not model (locations, variants, selling plans) are refused
   * with a user error rather than ignored.
   */
  private update(shop: string, id: string, input: Input) {
    const errors: UserError[] = [];
    const work = structuredClone(this.profilesOf(shop));
    const profile = work.find((p) => p.id === id);
    if (!profile)
      return {
        profile: null,
        userErrors: [{ field: ['id'], message: 'Profile could not be found.' }],
      };
    const err = (field: (string | number)[], message: string) =>
      errors.push({ field: field.map(String), message });

    for (const key of [
      'coversAllItems',
      'locationGroupsToCreate',
      'locationGroupsToDelete',
      'profileLocationGroups',
      'sellingPlanGroupsToAssociate',
      'sellingPlanGroupsToDissociate',
      'variantsToAssociate',
      'variantsToDissociate',
    ])
      if (input[key] !== undefined && input[key] !== null)
        err(['profile', key], `${key} is not modelled by the Shopify double`);
    if (typeof input.name === 'string') profile.name = input.name;

    const groups = (input.locationGroupsToUpdate ?? []) as Input[];
    groups.forEach((lg, i) => {
      const path = ['profile', 'locationGroupsToUpdate', i];
      const group = profile.profileLocationGroups.find((g) => g.locationGroup.id === lg.id);
      if (!group) return err([...path, 'id'], 'Location group could not be found.');
      for (const key of ['locations', 'locationsToAdd', 'locationsToRemove'])
        if (lg[key] !== undefined && lg[key] !== null)
          err([...path, key], `${key} is not modelled by the Shopify double`);
      ((lg.zonesToCreate ?? []) as Input[]).forEach((zi, j) => {
        const zpath = [...path, 'zonesToCreate', j];
        if (zi.id !== undefined && zi.id !== null)
          return err([...zpath, 'id'], 'A new zone takes no id.');
        if (typeof zi.name !== 'string' || !zi.name)
          err([...zpath, 'name'], 'Zone name is required.');
        const lgz: LocationGroupZone = {
          zone: { id: this.ids.id('DeliveryZone'), name: String(zi.name ?? ''), countries: [] },
          methodDefinitions: [],
        };
        this.setCountries(
          lgz,
          (zi.countries ?? []) as Input[],
          group.locationGroupZones,
          zpath,
          err,
        );
        if (!lgz.zone.countries.length)
          err([...zpath, 'countries'], 'A zone needs at least one country.');
        group.locationGroupZones.push(lgz);
        this.applyMethods(shop, lgz, zi, zpath, err);
      });
      ((lg.zonesToUpdate ?? []) as Input[]).forEach((zi, j) => {
        const zpath = [...path, 'zonesToUpdate', j];
        const lgz = group.locationGroupZones.find((z) => z.zone.id === zi.id);
        if (!lgz) return err([...zpath, 'id'], 'Zone could not be found.');
        if (typeof zi.name === 'string') lgz.zone.name = zi.name;
        if (Array.isArray(zi.countries))
          this.setCountries(
            lgz,
            zi.countries as Input[],
            group.locationGroupZones.filter((z) => z !== lgz),
            zpath,
            err,
          );
        this.applyMethods(shop, lgz, zi, zpath, err);
      });
    });

    const allZones = () => profile.profileLocationGroups.flatMap((g) => g.locationGroupZones);
    ((input.methodDefinitionsToDelete ?? []) as string[]).forEach((mid, i) => {
      const lgz = allZones().find((z) => z.methodDefinitions.some((m) => m.id === mid));
      if (!lgz)
        return err(
          ['profile', 'methodDefinitionsToDelete', i],
          'Method definition could not be found.',
        );
      lgz.methodDefinitions = lgz.methodDefinitions.filter((m) => m.id !== mid);
    });
    ((input.conditionsToDelete ?? []) as string[]).forEach((cid, i) => {
      const m = allZones()
        .flatMap((z) => z.methodDefinitions)
        .find((x) => x.methodConditions.some((c) => c.id === cid));
      if (!m) return err(['profile', 'conditionsToDelete', i], 'Condition could not be found.');
      m.methodConditions = m.methodConditions.filter((c) => c.id !== cid);
    });
    ((input.zonesToDelete ?? []) as string[]).forEach((zid, i) => {
      const group = profile.profileLocationGroups.find((g) =>
        g.locationGroupZones.some((z) => z.zone.id === zid),
      );
      if (!group) return err(['profile', 'zonesToDelete', i], 'Zone could not be found.');
      group.locationGroupZones = group.locationGroupZones.filter((z) => z.zone.id !== zid);
    });

    if (errors.length) return { profile: null, userErrors: errors };
    this.byShop.set(shop, work);
    return { profile: this.view(shop, profile), userErrors: [] };
  }

  private setCountries(
    lgz: LocationGroupZone,
    inputs: Input[],
    others: LocationGroupZone[],
    path: (string | number)[],
    err: (field: (string | number)[], message: string) => void,
  ): void {
    const countries: Country[] = [];
    inputs.forEach((ci, k) => {
      const cpath = [...path, 'countries', k];
      const code = typeof ci.code === 'string' ? ci.code : null;
      if (ci.restOfWorld === true) {
        if (code) return err(cpath, 'A country is either a code or the rest of the world.');
        countries.push({
          id: this.ids.id('DeliveryCountry'),
          name: 'Rest of World',
          code: { countryCode: null, restOfWorld: true },
          provinces: [],
        });
        return;
      }
      if (!code) return err([...cpath, 'code'], 'Country code is required.');
      const known = KNOWN_PROVINCES[code] ?? [];
      const wanted = ((ci.provinces ?? []) as Input[]).map((p) => String(p.code));
      const unknown = wanted.filter((w) => !known.some(([c]) => c === w));
      if (unknown.length)
        return err([...cpath, 'provinces'], `Unknown provinces of ${code}: ${unknown.join(', ')}.`);
      const picked =
        ci.includeAllProvinces === true || !wanted.length
          ? known
          : known.filter(([c]) => wanted.includes(c));
      countries.push({
        id: this.ids.id('DeliveryCountry'),
        name: COUNTRY_NAMES[code] ?? code,
        code: { countryCode: code, restOfWorld: false },
        provinces: picked.map(([c, name]) => ({
          id: this.ids.id('DeliveryProvince'),
          code: c,
          name,
        })),
      });
    });
    for (const c of countries)
      for (const other of others)
        if (other.zone.countries.some((o) => overlaps(c, o)))
          err([...path, 'countries'], `${c.name} is already in the zone ${other.zone.name}.`);
    lgz.zone.countries = countries;
  }

  private applyMethods(
    shop: string,
    lgz: LocationGroupZone,
    zi: Input,
    path: (string | number)[],
    err: (field: (string | number)[], message: string) => void,
  ): void {
    const services = this.carrierServices.list(shop);
    ((zi.methodDefinitionsToCreate ?? []) as Input[]).forEach((mi, k) => {
      const mpath = [...path, 'methodDefinitionsToCreate', k];
      if (mi.id !== undefined && mi.id !== null)
        return err([...mpath, 'id'], 'A new method definition takes no id.');
      const hasRate = mi.rateDefinition !== undefined && mi.rateDefinition !== null;
      const hasParticipant = mi.participant !== undefined && mi.participant !== null;
      if (hasRate === hasParticipant)
        return err(mpath, 'A method definition needs either a rate definition or a participant.');
      let method: MethodDefinition;
      if (hasParticipant) {
        const p = mi.participant as Input;
        const service = services.find((s) => s.id === p.carrierServiceId);
        // The shop's list holds only this app's services: another shop's or app's id is not found.
        if (!service)
          return err(
            [...mpath, 'participant', 'carrierServiceId'],
            'Carrier service could not be found.',
          );
        if (lgz.methodDefinitions.some((m) => this.namesCarrier(m, service.id)))
          return err(
            [...mpath, 'participant', 'carrierServiceId'],
            `${service.name} already takes part in this zone.`,
          );
        method = this.participantMethod(service, mi as never);
      } else {
        if (typeof mi.name !== 'string' || !mi.name)
          return err([...mpath, 'name'], 'Name is required.');
        const r = mi.rateDefinition as Input;
        method = {
          id: this.ids.id('DeliveryMethodDefinition'),
          name: mi.name,
          active: mi.active === true,
          description: typeof mi.description === 'string' ? mi.description : null,
          rateProvider: {
            __typename: 'DeliveryRateDefinition',
            id: this.ids.id('DeliveryRateDefinition'),
            price: moneyOf(r.price as Input),
          },
          methodConditions: [],
        };
      }
      method.methodConditions = this.conditions(mi, mpath, err);
      lgz.methodDefinitions.push(method);
    });
    ((zi.methodDefinitionsToUpdate ?? []) as Input[]).forEach((mi, k) => {
      const mpath = [...path, 'methodDefinitionsToUpdate', k];
      const method = lgz.methodDefinitions.find((m) => m.id === mi.id);
      if (!method) return err([...mpath, 'id'], 'Method definition could not be found.');
      if (typeof mi.active === 'boolean') method.active = mi.active;
      if (typeof mi.name === 'string') method.name = mi.name;
      if (typeof mi.description === 'string') method.description = mi.description;
      const rp = method.rateProvider;
      if (mi.rateDefinition) {
        if (rp.__typename !== 'DeliveryRateDefinition')
          return err(
            [...mpath, 'rateDefinition'],
            'A participant method definition has no rate definition.',
          );
        rp.price = moneyOf((mi.rateDefinition as Input).price as Input);
      }
      if (mi.participant) {
        const p = mi.participant as Input;
        if (rp.__typename !== 'DeliveryParticipant')
          return err([...mpath, 'participant'], 'A rate method definition has no participant.');
        if (p.carrierServiceId !== undefined && p.carrierServiceId !== rp.carrierService.id)
          return err(
            [...mpath, 'participant', 'carrierServiceId'],
            'The carrier service of a participant cannot change.',
          );
        if (typeof p.adaptToNewServices === 'boolean')
          rp.adaptToNewServicesFlag = p.adaptToNewServices;
        if (typeof p.percentageOfRateFee === 'number')
          rp.percentageOfRateFee = p.percentageOfRateFee;
        if (p.fixedFee) rp.fixedFee = moneyOf(p.fixedFee as Input);
      }
      if (mi.conditionsToUpdate)
        err(
          [...mpath, 'conditionsToUpdate'],
          'conditionsToUpdate is not modelled by the Shopify double',
        );
      method.methodConditions.push(...this.conditions(mi, mpath, err));
    });
  }

  private conditions(
    mi: Input,
    path: (string | number)[],
    err: (field: (string | number)[], message: string) => void,
  ): Condition[] {
    const out: Condition[] = [];
    for (const [key, field] of [
      ['priceConditionsToCreate', 'TOTAL_PRICE'],
      ['weightConditionsToCreate', 'TOTAL_WEIGHT'],
    ] as const)
      ((mi[key] ?? []) as Input[]).forEach((ci, k) => {
        const operator = ci.operator;
        if (operator !== 'GREATER_THAN_OR_EQUAL_TO' && operator !== 'LESS_THAN_OR_EQUAL_TO')
          return err([...path, key, k, 'operator'], 'Operator is required.');
        const c = ci.criteria as Input | null | undefined;
        if (!c) return err([...path, key, k, 'criteria'], 'Criteria is required.');
        out.push({
          id: this.ids.id('DeliveryCondition'),
          field,
          operator,
          conditionCriteria:
            field === 'TOTAL_PRICE'
              ? { __typename: 'MoneyV2', ...moneyOf(c) }
              : { __typename: 'Weight', value: Number(c.value), unit: c.unit as WeightUnit },
        });
      });
    return out;
  }
}

/** MoneyInput (amount a Decimal, number or string) as MoneyV2. */
function moneyOf(input: Input): Money {
  const amount = typeof input.amount === 'number' ? input.amount.toFixed(2) : String(input.amount);
  return { amount, currencyCode: String(input.currencyCode) };
}
