import { GraphqlDispatcher, httpReply, rootFields } from './graphql';

describe('rootFields', () => {
  it.each([
    ['query { products(first: 15) { edges { node { id } } } }', ['products']],
    [
      'mutation M($input: X!) { carrierServiceCreate(input: $input) { userErrors { message } } }',
      ['carrierServiceCreate'],
    ],
    ['{ a: products(query: "title:{x}") { nodes { id } } shop { name } }', ['products', 'shop']],
    [
      '# a comment { nope }\nquery Q @cached { carrierServices(first: 50) { nodes { id } } }',
      ['carrierServices'],
    ],
    ['query { __typename products { id } }', ['products']],
    ['not graphql', []],
  ])('finds the root fields of %s', (query, fields) => {
    expect(rootFields(query)).toEqual(fields);
  });
});

describe('GraphqlDispatcher', () => {
  const ctx = 'a-shop.myshopify.com';

  it('merges the data of each root field and passes variables and shop', async () => {
    const d = new GraphqlDispatcher();
    d.register('products', (v, c) => ({
      data: {
        products: { nodes: [{ id: `${c.shop}/${String(v.first)}/${String(c.args?.first)}` }] },
      },
    }));
    d.register('shop', () => ({ data: { shop: { name: 'A' } } }));
    const reply = await d.dispatch(ctx, {
      query: 'query Q($first: Int) { products(first: $first) { nodes { id } } shop { name } }',
      variables: { first: 15 },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      data: { products: { nodes: [{ id: `${ctx}/15/15` }] }, shop: { name: 'A' } },
      extensions: { cost: { requestedQueryCost: 2 + 15 + 1, actualQueryCost: 2 + 1 + 1 } },
    });
    expect(d.operations).toEqual([
      {
        shop: ctx,
        fields: ['products', 'shop'],
        variables: { first: 15 },
        requestedQueryCost: 18,
        refused: undefined,
      },
    ]);
  });

  it('answers a handler-chosen HTTP status for the whole request', async () => {
    const d = new GraphqlDispatcher();
    d.register('products', () =>
      httpReply(429, { errors: [{ message: 'Throttled' }] }, { 'retry-after': '1' }),
    );
    const reply = await d.dispatch(ctx, { query: '{ products(first: 1) { nodes { id } } }' });
    expect(reply).toEqual({
      status: 429,
      body: { errors: [{ message: 'Throttled' }] },
      headers: { 'retry-after': '1' },
    });
  });

  it('says which field does not exist', async () => {
    const reply = await new GraphqlDispatcher().dispatch(ctx, { query: '{ orders { id } }' });
    expect(reply.body).toMatchObject({
      errors: [{ message: "Field 'orders' doesn't exist on type 'QueryRoot'" }],
    });
    expect(new GraphqlDispatcher().operations).toEqual([]);
  });

  it('refuses a second handler for the same field', () => {
    const d = new GraphqlDispatcher();
    d.register('products', () => ({}));
    expect(() => d.register('products', () => ({}))).toThrow('already registered');
  });
});
