import { BulkOperationsDouble } from './bulk-operations';
import type { DoubleProduct } from './demo-catalog';
import { GraphqlDispatcher } from './graphql';

const SHOP = 'bulk.myshopify.com';
const product = (id: number, tags: string[]): DoubleProduct => ({
  id,
  title: `P${id}`,
  handle: `p${id}`,
  vendor: 'V',
  image: null,
  variants: [],
  productType: 'Boots',
  tags,
  updatedAt: '2026-11-01T00:00:00Z',
});

function setUp(catalog: DoubleProduct[]) {
  const graphql = new GraphqlDispatcher();
  const bulk = new BulkOperationsDouble(
    graphql,
    () => catalog,
    () => 'http://double.test',
  );
  const run = async (query: string, shop = SHOP) =>
    (await graphql.dispatch(shop, { query })).body as {
      data: Record<string, any>;
      errors?: unknown;
    };
  const start = (inner: string, shop = SHOP) =>
    run(
      `mutation { bulkOperationRunQuery(groupObjects: false, query: ${JSON.stringify(inner)}) { bulkOperation { id status } userErrors { field message code } } }`,
      shop,
    );
  const status = async (id: string, shop = SHOP) =>
    (await run(`{ bulkOperation(id: "${id}") { id status objectCount url } }`, shop)).data
      .bulkOperation;
  return { bulk, start, status };
}

const EXPORT = '{ products { edges { node { id productType tags updatedAt } } } }';

describe('the double’s bulk query operations', () => {
  it('exports every product a line, once COMPLETED, at a url read without the token', async () => {
    const { bulk, start, status } = setUp([product(1, ['a']), product(2, [])]);
    const started = (await start(EXPORT)).data.bulkOperationRunQuery;
    expect(started).toEqual({
      bulkOperation: { id: 'gid://shopify/BulkOperation/1', status: 'CREATED' },
      userErrors: [],
    });
    const id = started.bulkOperation.id as string;
    expect(await status(id)).toMatchObject({ status: 'RUNNING', url: null });
    const done = await status(id);
    expect(done).toMatchObject({ status: 'COMPLETED', objectCount: '2' });
    const key = (done.url as string).match(/\/__bulk\/([0-9a-f]+)\.jsonl$/)![1]!;
    expect(
      bulk
        .file(key)!
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        id: 'gid://shopify/Product/1',
        productType: 'Boots',
        tags: ['a'],
        updatedAt: '2026-11-01T00:00:00Z',
      },
      {
        id: 'gid://shopify/Product/2',
        productType: 'Boots',
        tags: [],
        updatedAt: '2026-11-01T00:00:00Z',
      },
    ]);
    // Another shop cannot read the operation.
    expect(await status(id, 'other.myshopify.com')).toBeNull();
  });

  it('runs one at a time per shop, and answers no url for an empty catalog', async () => {
    const { start, status } = setUp([]);
    const first = (await start(EXPORT)).data.bulkOperationRunQuery.bulkOperation.id as string;
    const second = (await start(EXPORT)).data.bulkOperationRunQuery;
    expect(second.bulkOperation).toBeNull();
    expect(second.userErrors[0].code).toBe('OPERATION_IN_PROGRESS');
    await status(first);
    expect(await status(first)).toMatchObject({ status: 'COMPLETED', objectCount: '0', url: null });
  });

  it.each([
    ['{ products(first: 5) { edges { node { id } } } }', 'page arguments'],
    ['{ products { edges { node { id variants { edges { node { id } } } } } } }', 'scalar'],
    ['{ orders { edges { node { id } } } }', 'only `products`'],
    ['{ products { edges { node { colour } } } }', "Field 'colour'"],
  ])('refuses what the app never sends: %s', async (inner, message) => {
    const { start } = setUp([]);
    const reply = (await start(inner)).data.bulkOperationRunQuery;
    expect(reply.bulkOperation).toBeNull();
    expect(reply.userErrors[0]).toMatchObject({ code: 'INVALID' });
    expect(reply.userErrors[0].message).toContain(message);
  });
});
