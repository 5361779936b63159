import { APP_VARIABLES } from './app-variables';
import { CarrierServicesDouble } from './carrier-services';
import { DeliveryProfilesDouble } from './delivery-profiles';
import { GraphqlDispatcher } from './graphql';
import { GraphqlSyntaxError, parseOperation } from './parse';
import { findAppDocuments } from './published-schema';
import { ADMIN_SCHEMA } from './schema';
import { requestedCost, validateOperation } from './validate';

const SHOP = 'strict.myshopify.com';

/** Every Admin document the services send (found in their sources: a new one is found by itself). */
const APP_DOCUMENTS = new Map(findAppDocuments().map((d) => [d.name, d.text]));
/** The shipping-zone documents (2026-10: the app adds its carrier to zones itself). */
const DELIVERY_DOCUMENT_NAMES = [
  'RatesmithDeliveryProfileUpdate',
  'RatesmithDeliveryProfiles',
  'RatesmithDeliveryRates',
  'RatesmithDeliveryZones',
];

describe('parseOperation', () => {
  it('reads operations, variables with defaults, arguments, aliases, fragments and locations', () => {
    const op = parseOperation(`# comment
query Q($first: Int = 5, $ids: [ID!]!) {
  a: products(first: $first, query: "title:\\"x\\"", reverse: true) {
    nodes { id ... on Product { title } }
  }
  nodes(ids: $ids) { ... on Product { id } }
}`);
    expect(op).toMatchObject({
      operation: 'query',
      name: 'Q',
      variables: [
        { name: 'first', type: 'Int', defaultValue: { kind: 'int', value: 5 } },
        { name: 'ids', type: '[ID!]!', defaultValue: undefined },
      ],
    });
    const [products, nodes] = op.selections as any[];
    expect(products).toMatchObject({
      alias: 'a',
      name: 'products',
      loc: { line: 3, column: 3 },
      args: [
        { name: 'first', value: { kind: 'variable', name: 'first' } },
        { name: 'query', value: { kind: 'string', value: 'title:"x"' } },
        { name: 'reverse', value: { kind: 'boolean', value: true } },
      ],
    });
    expect(products.selections[0].selections[1]).toMatchObject({
      kind: 'inline',
      typeCondition: 'Product',
      selections: [{ kind: 'field', name: 'title' }],
    });
    expect(nodes.selections[0]).toMatchObject({ kind: 'inline', typeCondition: 'Product' });
    expect(
      parseOperation('mutation { a(x: {b: [1, 2.5, null, ENUM]}) { c } }').selections[0],
    ).toMatchObject({
      args: [
        {
          value: {
            kind: 'object',
            fields: {
              b: {
                kind: 'list',
                values: [
                  { kind: 'int' },
                  { kind: 'float' },
                  { kind: 'null' },
                  { kind: 'enum', value: 'ENUM' },
                ],
              },
            },
          },
        },
      ],
    });
  });

  it.each([
    ['{ products(first: 1) { id }', "Expected '}', found end of document"],
    ['query { }', 'A selection set may not be empty'],
    ['query { a } query { b }', 'The double answers documents of exactly one operation'],
    [
      '{ ...F } fragment F on QueryRoot { shop { id } }',
      'Named fragments are not supported by the double',
    ],
    ['{ a(x: "open) }', 'Unterminated string'],
    ['subscription { a }', "Unexpected 'subscription': expected query or mutation"],
  ])('refuses %s', (text, message) => {
    expect(() => parseOperation(text)).toThrow(GraphqlSyntaxError);
    expect(() => parseOperation(text)).toThrow(message);
  });
});

describe('the strict dispatcher', () => {
  const dispatcher = () => {
    const d = new GraphqlDispatcher();
    d.register('shop', () => ({ data: { shop: { id: 'gid://shopify/Shop/1', name: 'S' } } }));
    d.register('products', () => ({ data: { products: { nodes: [], edges: [], pageInfo: {} } } }));
    return d;
  };
  const send = (query: string, variables: Record<string, unknown> = {}) =>
    dispatcher().dispatch(SHOP, { query, variables });

  it("refuses a field the type does not have, with Shopify's error shape and HTTP 200", async () => {
    const reply = await send('query Q { products(first: 1) { nodes { id images { url } } } }');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      errors: [
        {
          message: "Field 'images' doesn't exist on type 'Product'",
          locations: [{ line: 1, column: 43 }],
          path: ['query Q', 'products', 'nodes', 'images'],
          extensions: { code: 'undefinedField', typeName: 'Product', fieldName: 'images' },
        },
      ],
    });
    expect((await send('{ orders(first: 1) { nodes { id } } }')).body).toMatchObject({
      errors: [
        { extensions: { code: 'undefinedField', typeName: 'QueryRoot', fieldName: 'orders' } },
      ],
    });
  });

  it.each([
    [
      '{ products(first: 1, foo: 2) { nodes { id } } }',
      'argumentNotAccepted',
      "Field 'products' doesn't accept argument 'foo'",
    ],
    [
      '{ product { id } }',
      'missingRequiredArguments',
      "Field 'product' is missing required arguments: id",
    ],
    [
      'query Q { products(first: $n) { nodes { id } } }',
      'variableNotDefined',
      'Variable $n is used by Q but not declared',
    ],
    [
      'query Q($n: Int) { shop { id } }',
      'variableNotUsed',
      'Variable $n is declared by Q but not used',
    ],
    [
      'query Q($n: String) { products(first: $n) { nodes { id } } }',
      'variableMismatch',
      'Type mismatch on variable $n and argument first (String / Int)',
    ],
    [
      'query Q($id: ID) { product(id: $id) { id } }',
      'variableMismatch',
      'Nullability mismatch on variable $id and argument id (ID / ID!)',
    ],
    [
      '{ products(first: "x") { nodes { id } } }',
      'argumentLiteralsIncompatible',
      `Argument 'first' on Field 'products' has an invalid value ("x"). Expected type 'Int'.`,
    ],
    [
      '{ shop }',
      'selectionMismatch',
      "Field must have selections (field 'shop' returns Shop but has no selections. Did you mean 'shop { ... }'?)",
    ],
    [
      '{ shop { id { x } } }',
      'selectionMismatch',
      "Selections can't be made on scalars (field 'id' returns ID but has selections [x])",
    ],
    ['{ shop @cached { id } }', 'undefinedDirective', 'Directive @cached is not defined'],
    [
      '{ products(first: 1) { nodes { ... on Order { id } } } }',
      'undefinedType',
      "No such type Order, so it can't be a fragment condition",
    ],
    [
      '{ products(first: 1) { nodes { ... on Shop { id } } } }',
      'cannotSpreadFragment',
      "Fragment on Shop can't be spread inside Product",
    ],
    [
      'query Q($x: Money) { shop { id } }',
      'variableRequiresValidType',
      "Money isn't a defined input type (on $x)",
    ],
  ])('refuses %s (%s)', async (query, code, message) => {
    const reply = await send(query);
    expect(reply.status).toBe(200);
    expect((reply.body as any).errors).toContainEqual(
      expect.objectContaining({ message, extensions: expect.objectContaining({ code }) }),
    );
    expect(reply.body).not.toHaveProperty('data');
  });

  it('refuses variable values of the wrong type and input fields Shopify does not define', async () => {
    const bad = await send('query Q($n: Int) { products(first: $n) { nodes { id } } }', {
      n: '15',
    });
    expect((bad.body as any).errors[0]).toMatchObject({
      message: 'Variable $n of type Int was provided invalid value',
      extensions: { code: 'INVALID_VARIABLE' },
    });
    const d = new GraphqlDispatcher();
    const extra = await d.dispatch(SHOP, {
      query:
        'mutation M($input: DeliveryCarrierServiceCreateInput!) { carrierServiceCreate(input: $input) { userErrors { message } } }',
      variables: {
        input: {
          ...(APP_VARIABLES.RatesmithCarrierServiceCreate!.input as object),
          format: 'json',
        },
      },
    });
    expect((extra.body as any).errors[0].message).toBe(
      'Variable $input of type DeliveryCarrierServiceCreateInput! was provided invalid value for format (Field is not defined on DeliveryCarrierServiceCreateInput)',
    );
  });

  it('asks for first or last on every connection, at most 250', async () => {
    expect((await send('{ products { nodes { id } } }')).body).toMatchObject({
      errors: [{ message: 'you must provide one of first or last', path: ['query', 'products'] }],
    });
    expect((await send('{ products(first: 251) { nodes { id } } }')).body).toMatchObject({
      errors: [{ message: 'The maximum page size is 250.' }],
    });
  });

  it('answers only the selected fields, under their aliases', async () => {
    const reply = await send('{ s: shop { __typename id } }');
    expect(reply.body).toMatchObject({
      data: { s: { __typename: 'Shop', id: 'gid://shopify/Shop/1' } },
      extensions: { cost: { requestedQueryCost: 1, actualQueryCost: 1 } },
    });
    expect((reply.body as any).data.s).not.toHaveProperty('name');
  });

  it('refuses a query above 1,000 points before running it', async () => {
    const query =
      'query Big { products(first: 15) { nodes { variants(first: 100) { nodes { id } } } } }';
    const reply = await send(query);
    // 2 + 15 × (1 + 2 + 100 × 1): the example of Shopify's documentation.
    expect(reply).toEqual({
      status: 200,
      headers: {},
      body: {
        errors: [
          {
            message: 'Query cost is 1547, which exceeds the single query max cost limit (1000).',
            extensions: { code: 'MAX_COST_EXCEEDED', cost: 1547, maxCost: 1000 },
          },
        ],
      },
    });
  });
});

describe('requested cost', () => {
  const cost = (query: string, variables: Record<string, unknown> = {}) =>
    requestedCost(ADMIN_SCHEMA, parseOperation(query), variables);

  it.each([
    ['{ shop { id name } }', 1],
    ['{ products(first: 10) { pageInfo { hasNextPage } edges { cursor } } }', 2 + 10],
    ['{ products(first: 10) { edges { node { id } } nodes { id } } }', 2 + 10],
    ['{ products(last: 3) { nodes { featuredMedia { preview { image { url } } } } } }', 2 + 3 * 4],
    ['{ nodes(ids: ["a", "b"]) { ... on Product { id featuredMedia { id } } } }', 2 * 2],
    [
      '{ nodes(ids: ["a"]) { ... on Product { featuredMedia { id } } ... on ProductVariant { id } } }',
      2,
    ],
    ['mutation { carrierServiceDelete(id: "x") { deletedId } }', 10],
  ])('%s costs %d', (query, expected) => {
    expect(cost(query)).toBe(expected);
  });

  it('reads page sizes from variables', () => {
    expect(cost('query Q($n: Int) { products(first: $n) { nodes { id } } }', { n: 7 })).toBe(9);
  });
});

describe("the app's own operations", () => {
  it('finds every operation the auth and catalog services send', () => {
    expect([...APP_DOCUMENTS.keys()].sort()).toEqual(
      [
        ...DELIVERY_DOCUMENT_NAMES,
        'RatesmithAccessProbe',
        'RatesmithCarrierService',
        'RatesmithCarrierServiceCreate',
        'RatesmithCarrierServiceUpdate',
        'RatesmithCarrierServices',
        'RatesmithProductExport',
        'RatesmithProductExportStatus',
        'RatesmithProductFacts',
        'RatesmithProductTags',
        'RatesmithProductTypes',
        'RatesmithProductVendors',
        'RatesmithProductVariants',
        'RatesmithProducts',
        'RatesmithProductsById',
        'RatesmithShopCurrency',
        'RatesmithVariantWeights',
      ].sort(),
    );
  });

  it('all pass the schema, and each costs what the table in services/auth/README.md says', () => {
    const costs: Record<string, number> = {};
    for (const [name, text] of APP_DOCUMENTS) {
      const op = parseOperation(text);
      const variables = APP_VARIABLES[name] ?? {};
      expect({ name, errors: validateOperation(ADMIN_SCHEMA, op, variables) }).toEqual({
        name,
        errors: [],
      });
      costs[name] = requestedCost(ADMIN_SCHEMA, op, variables);
    }
    // Printed so the README's table can be checked against a run.
    console.log(
      Object.entries(costs)
        .map(([name, c]) => `${name}: ${c}`)
        .join('\n'),
    );
    expect(costs).toEqual({
      // A page of 25 profiles: each, its location groups (a list: one) and the group.
      RatesmithDeliveryProfiles: 2 + 25 * 3,
      // One profile, one location group, 20 zones of (zone, countries, code, provinces)
      // and 10 participant method definitions of (node, rate provider, carrier service).
      RatesmithDeliveryZones: 1 + 1 + 2 + 20 * (1 + 4 + 2 + 10 * 3),
      RatesmithDeliveryProfileUpdate: 10,
      // The import's read: 7 zones of (zone, countries, code, provinces) and 25 method
      // definitions of (node, rate provider, price or carrier, conditions, criteria).
      RatesmithDeliveryRates: 1 + 1 + 2 + 7 * (1 + 4 + 2 + 25 * 5),
      RatesmithAccessProbe: 1,
      RatesmithCarrierService: 1,
      RatesmithCarrierServiceCreate: 10,
      RatesmithCarrierServiceUpdate: 10,
      RatesmithCarrierServices: 2 + 50,
      RatesmithProducts: 2 + 15 * (1 + 3 + 2 + 50),
      RatesmithProductsById: 8 * (1 + 3 + 2 + 50),
      // A product of scalars is one point.
      RatesmithProductFacts: 100,
      // A mutation is 10; the export's status is one object.
      RatesmithProductExport: 10,
      RatesmithProductExportStatus: 1,
      // A connection of strings: 2, its values are scalars.
      RatesmithProductVendors: 2,
      RatesmithProductTypes: 2,
      RatesmithProductTags: 2,
      RatesmithProductVariants: 1 + 2 + 250,
      RatesmithShopCurrency: 1 + 1,
      // Each variant: itself, its inventory item, the measurement and the weight.
      RatesmithVariantWeights: 1 + 2 + 50 * 4,
    });
    for (const c of Object.values(costs)) expect(c).toBeLessThanOrEqual(1000);
  });
});

/**
 * The shipping-zone documents run against the double as the app runs them:
 * read the profiles, read a location group's zones, add the carrier to a
 * zone, and see checkout ask it there only.
 */
describe("the app's shipping-zone documents", () => {
  it('read the zones, add the carrier where it was not, and checkout asks it there', async () => {
    const graphql = new GraphqlDispatcher();
    const carriers = new CarrierServicesDouble(graphql);
    const profiles = new DeliveryProfilesDouble(graphql, carriers);
    const run = async (name: string, variables: Record<string, unknown>) => {
      const reply = await graphql.dispatch(SHOP, { query: APP_DOCUMENTS.get(name)!, variables }, [
        'read_products',
        'write_shipping',
      ]);
      const body = reply.body as { data?: Record<string, unknown>; errors?: unknown };
      expect({ name, errors: body.errors }).toEqual({ name, errors: undefined });
      return body.data!;
    };
    const created = await run(
      'RatesmithCarrierServiceCreate',
      APP_VARIABLES.RatesmithCarrierServiceCreate!,
    );
    const carrierId = (created.carrierServiceCreate as { carrierService: { id: string } })
      .carrierService.id;

    const read = (await run('RatesmithDeliveryProfiles', { after: null })) as {
      deliveryProfiles: {
        pageInfo: { hasNextPage: boolean };
        nodes: {
          id: string;
          default: boolean;
          profileLocationGroups: { locationGroup: { id: string } }[];
        }[];
      };
    };
    const general = read.deliveryProfiles.nodes.find((p) => p.default)!;
    const groupId = general.profileLocationGroups[0]!.locationGroup.id;
    const zonesOf = async () =>
      (
        (await run('RatesmithDeliveryZones', {
          profileId: general.id,
          locationGroupId: groupId,
          after: null,
        })) as {
          deliveryProfile: {
            profileLocationGroups: {
              locationGroupZones: {
                nodes: {
                  zone: { id: string; name: string };
                  methodDefinitions: { nodes: unknown[] };
                }[];
              };
            }[];
          };
        }
      ).deliveryProfile.profileLocationGroups[0]!.locationGroupZones.nodes;
    const zones = await zonesOf();
    expect(zones.map((z) => [z.zone.name, z.methodDefinitions.nodes])).toEqual([
      ['Domestic', []],
      ['Canada', []],
      ['Europe', []],
      ['Rest of world', []],
    ]);

    const canada = zones.find((z) => z.zone.name === 'Canada')!.zone.id;
    const update = await run('RatesmithDeliveryProfileUpdate', {
      id: general.id,
      profile: {
        locationGroupsToUpdate: [
          {
            id: groupId,
            zonesToUpdate: [
              {
                id: canada,
                methodDefinitionsToCreate: [
                  {
                    active: true,
                    participant: { carrierServiceId: carrierId, adaptToNewServices: true },
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(update).toEqual({ deliveryProfileUpdate: { userErrors: [] } });
    const after = (await zonesOf()).find((z) => z.zone.id === canada)!;
    expect(after.methodDefinitions.nodes).toEqual([
      {
        id: expect.any(String),
        active: true,
        rateProvider: { id: expect.any(String), carrierService: { id: carrierId } },
      },
    ]);
    expect(profiles.checkoutZone(SHOP, { country: 'CA', province: 'ON' })?.carrierIds).toEqual(
      new Set([carrierId]),
    );
    expect(profiles.checkoutZone(SHOP, { country: 'US', province: 'NY' })?.carrierIds).toEqual(
      new Set(),
    );
  });
});
