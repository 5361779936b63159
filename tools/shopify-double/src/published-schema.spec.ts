import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  buildSchema,
  getVariableValues,
  Kind,
  parse,
  validate,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { SHOPIFY_API_VERSION } from '@ratesmith/kit/shopify';
import { APP_VARIABLES } from './app-variables';
import { parseOperation } from './parse';
import {
  doubleDifferences,
  extractSdl,
  findAppDocuments,
  loadPublishedSchema,
  PUBLISHED_SDL,
  PUBLISHED_VERSION,
  publishedRequestedCost,
  REPO_ROOT,
} from './published-schema';
import { ADMIN_SCHEMA } from './schema';
import { MAX_QUERY_COST, requestedCost } from './validate';

/**
 * The app's Admin GraphQL documents and the double's schema checked against
 * Shopify's published schema (the extract in ../published-schema/, whose
 * README says where it comes from and how `remake-published-schema.ts`
 * remakes it).
 */

const DOCUMENTS = findAppDocuments();

describe("Shopify's published Admin schema", () => {
  it('is of the Admin API version the app pins', () => {
    const pinned = readFileSync(`${REPO_ROOT}/shopify.app.toml`, 'utf8');
    expect(pinned).toContain(`api_version = "${PUBLISHED_VERSION}"`);
    expect(SHOPIFY_API_VERSION).toBe(PUBLISHED_VERSION);
    expect(readFileSync(PUBLISHED_SDL, 'utf8')).toContain(`Admin GraphQL API ${PUBLISHED_VERSION}`);
  });
});

/** Read when first needed: after the first test may have remade it. */
describe('findAppDocuments', () => {
  const tree = (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'documents-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, dirname(path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

  it("reads every service's string constants, filling in earlier constants", () => {
    const root = tree({
      'services/a/src/deep/q.ts':
        "const N = 5;\nconst F = 'id';\nexport const Q = `#graphql\nquery A { products(first: ${N}) { nodes { ${F} } } }`;",
      'services/b/src/m.ts': "const M = 'mutation B { shop { id } }';",
      'services/b/src/m.spec.ts': "const T = 'query InATest { shop { id } }';",
    });
    expect(findAppDocuments(root)).toEqual([
      {
        name: 'A',
        file: 'services/a/src/deep/q.ts',
        text: 'query A { products(first: 5) { nodes { id } } }',
      },
      { name: 'B', file: 'services/b/src/m.ts', text: 'mutation B { shop { id } }' },
    ]);
  });

  it('refuses a document it cannot rebuild rather than skip it', () => {
    expect(() =>
      findAppDocuments(
        tree({ 'services/a/src/q.ts': 'const Q = `query A { shop { ${field} } }`;' }),
      ),
    ).toThrow('services/a/src/q.ts: A uses a value that is not a constant of the file');
    expect(() =>
      findAppDocuments(tree({ 'services/a/src/q.ts': 'send(`query A { shop { id } }`);' })),
    ).toThrow('services/a/src/q.ts: A is sent but is not a plain string constant');
  });
});

describe('extractSdl', () => {
  const full = buildSchema(`
    type Query { shop: Shop!, products(first: Int): ProductConnection!, orders: [Order!]! }
    type Mutation { productDelete(id: ID!): Payload }
    type Shop { id: ID!, name: String!, owner: Owner, rates: [DeliveryRate!]! }
    type Owner { email: String }
    type Order { id: ID! }
    type ProductConnection { edges: [ProductEdge!]!, nodes: [Product!]!, pageInfo: PageInfo! }
    type ProductEdge { cursor: String!, node: Product! }
    type Product { id: ID!, title: String!, status: Status @deprecated(reason: "use something else") }
    type PageInfo { hasNextPage: Boolean! }
    type DeliveryRate { id: ID!, price: Price, provider: DeliveryProvider }
    union DeliveryProvider = Carrier | Merchant
    type Carrier { name: String }
    type Merchant { name: String }
    type Price { amount: String }
    type Payload { deletedId: ID }
    enum Status { ACTIVE DRAFT }
  `);
  const sdl = () =>
    extractSdl(
      full,
      {
        documents: ['{ products(first: 1) { nodes { title } } }'],
        double: {
          query: 'Query',
          mutation: 'Mutation',
          types: {},
          inputs: {},
          leafTypes: new Set(),
        },
      },
      ['header'],
      { query: ['shop', 'products'], mutation: ['productDelete'], extra: ['PageInfo'] },
    );

  it("keeps used and Delivery* types whole, their connections, unions' members and what is listed", () => {
    const text = sdl();
    expect(text).toContain(
      'type Product {\n  id: ID!\n  title: String!\n  status: Status @deprecated\n}',
    );
    expect(text).toContain('type ProductConnection {');
    expect(text).toContain('union DeliveryProvider = Carrier | Merchant');
    expect(text).toContain('type Carrier {');
    expect(text).toContain('type PageInfo {');
    expect(text).toContain('enum Status {\n  ACTIVE\n  DRAFT\n}');
    expect(text).not.toContain('use something else');
  });

  it('names what it leaves out, and keeps only the root fields asked for', () => {
    const text = sdl();
    expect(text).toContain('# not kept: owner\ntype Shop {');
    expect(text).toContain('# not kept: price\ntype DeliveryRate {');
    expect(text).not.toContain('type Owner');
    expect(text).not.toContain('orders');
    expect(() => buildSchema(text)).not.toThrow();
  });

  it('refuses to write a type none of whose fields it keeps', () => {
    const bare = buildSchema(
      'type Query { shop: Shop } type Shop { owner: Owner } type Owner { a: Int }',
    );
    expect(() =>
      extractSdl(
        bare,
        {
          documents: [],
          double: {
            query: 'Query',
            mutation: 'Mutation',
            types: {},
            inputs: {},
            leafTypes: new Set(),
          },
        },
        [],
        { query: ['shop'], mutation: [], extra: [] },
      ),
    ).toThrow('Shop: none of its fields is kept');
  });
});

let cached: GraphQLSchema | undefined;
const published = (): GraphQLSchema => (cached ??= loadPublishedSchema());

describe("the app's documents against Shopify's published schema", () => {
  it('are found in every service', () => {
    const names = DOCUMENTS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'RatesmithAccessProbe',
        'RatesmithCarrierService',
        'RatesmithCarrierServiceCreate',
        'RatesmithCarrierServiceUpdate',
        'RatesmithCarrierServices',
        'RatesmithProductVariants',
        'RatesmithProducts',
        'RatesmithProductsById',
        'RatesmithShopCurrency',
        'RatesmithVariantWeights',
      ]),
    );
  });

  it.each(DOCUMENTS.map((d) => [d.name, d] as const))(
    '%s is valid (fields, arguments, variables and their types)',
    (_, doc) => {
      const ast = parse(doc.text);
      expect(validate(published(), ast).map((e) => e.message)).toEqual([]);
      const op = ast.definitions[0] as OperationDefinitionNode;
      expect(ast.definitions).toHaveLength(1);
      expect(op.kind).toBe(Kind.OPERATION_DEFINITION);
      const sample = APP_VARIABLES[doc.name];
      if (sample) {
        const coerced = getVariableValues(published(), op.variableDefinitions ?? [], sample);
        expect((coerced.errors ?? []).map((e) => e.message)).toEqual([]);
      }
    },
  );

  it('cost what the double charges, as Shopify computes it, and at most 1,000 each', () => {
    const rows = DOCUMENTS.map((doc) => {
      const variables = APP_VARIABLES[doc.name] ?? {};
      const shopify = publishedRequestedCost(published(), parse(doc.text), variables);
      const double = requestedCost(ADMIN_SCHEMA, parseOperation(doc.text), variables);
      return { operation: doc.name, file: doc.file, shopify, double };
    });
    console.log(
      [
        'requested cost of each document (Shopify: from the published schema; double: its requestedCost)',
        ...rows.map(
          (r) =>
            `${r.operation.padEnd(34)} ${String(r.shopify).padStart(5)} ${String(r.double).padStart(5)}  ${r.file}`,
        ),
      ].join('\n'),
    );
    expect(rows.filter((r) => r.shopify !== r.double)).toEqual([]);
    expect(rows.filter((r) => r.shopify > MAX_QUERY_COST)).toEqual([]);
  });
});

describe("Shopify's requested cost (publishedRequestedCost)", () => {
  const cost = (query: string, variables: Record<string, unknown> = {}) =>
    publishedRequestedCost(published(), parse(query), variables);

  it.each([
    // An object 1, its scalars and enums 0.
    ['{ shop { id name currencyCode } }', 1],
    ['{ shop { currencyFormats { moneyFormat } } }', 2],
    // A connection 2 plus one item per first or last: edges, node, cursor, pageInfo included.
    ['{ products(first: 10) { pageInfo { hasNextPage } edges { cursor } } }', 2 + 10],
    ['{ products(first: 10) { edges { node { id } } nodes { id } } }', 2 + 10],
    ['{ products(last: 3) { nodes { featuredMedia { preview { image { url } } } } } }', 2 + 3 * 4],
    // Nested connections multiply: the example of Shopify's documentation.
    ['{ products(first: 15) { nodes { variants(first: 100) { nodes { id } } } } }', 1547],
    // An interface: the dearest of its fragments.
    ['{ nodes(ids: ["a", "b"]) { ... on Product { id featuredMedia { id } } } }', 2 * 2],
    [
      '{ nodes(ids: ["a"]) { ... on Product { featuredMedia { id } } ... on ProductVariant { id } } }',
      2,
    ],
    // A mutation 10, whatever it selects.
    ['mutation { carrierServiceDelete(id: "x") { deletedId userErrors { message } } }', 10],
  ])('%s costs %d', (query, expected) => {
    expect(cost(query)).toBe(expected);
  });

  it('reads page sizes from variables and their defaults', () => {
    expect(cost('query Q($n: Int) { products(first: $n) { nodes { id } } }', { n: 7 })).toBe(9);
    expect(cost('query Q($n: Int = 4) { products(first: $n) { nodes { id } } }')).toBe(6);
    expect(() => cost('query Q($n: Int) { products(first: $n) { nodes { id } } }')).toThrow(
      'no first or last',
    );
  });
});

describe("the double's schema (schema.ts) against Shopify's published one", () => {
  it('declares nothing Shopify lacks and is nowhere more lenient', () => {
    expect(doubleDifferences(ADMIN_SCHEMA, published())).toEqual([]);
  });

  it('would be caught declaring a field, argument or input field Shopify does not have', () => {
    const types = structuredClone(ADMIN_SCHEMA.types);
    types.Product!.fields.shippingRates = { kind: 'list', type: 'Image' };
    types.QueryRoot!.fields.product = {
      kind: 'object',
      type: 'Product',
      args: { handle: 'String' },
    };
    const inputs = structuredClone(ADMIN_SCHEMA.inputs);
    inputs.DeliveryCarrierServiceCreateInput!.format = 'String';
    inputs.DeliveryCarrierServiceCreateInput!.name = 'String';
    delete inputs.DeliveryCarrierServiceCreateInput!.callbackUrl;
    const problems = doubleDifferences({ ...ADMIN_SCHEMA, types, inputs }, published());
    expect(problems).toEqual(
      expect.arrayContaining([
        'Product.shippingRates: Shopify has no such field',
        'QueryRoot.product: Shopify has no argument handle',
        'QueryRoot.product: Shopify requires argument id (ID!), the double does not declare it',
        "input DeliveryCarrierServiceCreateInput(name): the double's String, Shopify's String!: the double lets it be null",
        'input DeliveryCarrierServiceCreateInput: Shopify has no field format',
        'input DeliveryCarrierServiceCreateInput: Shopify requires field callbackUrl (URL!), the double does not declare it',
      ]),
    );
    expect(problems).toHaveLength(6);
  });
});
