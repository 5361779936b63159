import { createServer } from 'node:net';
import { createLogger } from '@ratesmith/kit';
import { shopifyLibrary } from '@ratesmith/kit/shopify';
import { GraphqlQueryError, HttpInternalError, HttpThrottlingError } from '@shopify/shopify-api';
import { MESSAGES, ShopifyAdmin, throttledWait } from './admin-client';

const graphqlError = (errors: unknown[], extensions?: unknown) =>
  new GraphqlQueryError({
    message: 'GraphQL Client: An error occurred while fetching from the API.',
    response: {},
    body: { errors: { graphQLErrors: errors }, ...(extensions ? { extensions } : {}) },
  });

describe('throttledWait', () => {
  it("reads Shopify's THROTTLED reply and its cost data", () => {
    const err = graphqlError([{ message: 'Throttled', extensions: { code: 'THROTTLED' } }], {
      cost: {
        requestedQueryCost: 100,
        actualQueryCost: null,
        throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 50, restoreRate: 100 },
      },
    });
    expect(throttledWait(err)).toBe(500 + 50);
  });

  it('honours Retry-After on an HTTP 429', () => {
    const err = new HttpThrottlingError({
      message: 'throttled',
      code: 429,
      statusText: 'Too Many Requests',
      retryAfter: 2,
    });
    expect(throttledWait(err)).toBe(2000);
  });

  it('is undefined for every other failure', () => {
    expect(throttledWait(graphqlError([{ message: 'Field x does not exist' }]))).toBeUndefined();
    expect(
      throttledWait(new HttpInternalError({ message: 'boom', code: 500, statusText: 'Error' })),
    ).toBeUndefined();
    expect(throttledWait(new Error('network'))).toBeUndefined();
  });
});

const library = (transport?: { origin: string; timeoutMs: number }) =>
  shopifyLibrary({
    apiKey: 'key',
    apiSecret: 'secret',
    appUrl: 'https://localhost',
    ...(transport ? { transport } : {}),
  });

describe('ShopifyAdmin', () => {
  it('answers "cannot be reached" when nothing listens at the Shopify origin', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));

    const admin = new ShopifyAdmin({
      shopify: library({ origin: `http://127.0.0.1:${port}`, timeoutMs: 2000 }),
      requestTimeoutMs: 2000,
      throttleRetries: 1,
      logger: createLogger('test', 'silent'),
    });
    await expect(
      admin.query('shop.myshopify.com', 'token', '{ shop { name } }', {}, Date.now() + 3000),
    ).rejects.toMatchObject({ kind: 'unavailable', message: MESSAGES.unreachable });
  });

  it('answers "did not answer in time" once the deadline has passed', async () => {
    const admin = new ShopifyAdmin({
      shopify: library(),
      requestTimeoutMs: 2000,
      throttleRetries: 1,
      logger: createLogger('test', 'silent'),
    });
    await expect(
      admin.query('shop.myshopify.com', 'token', '{ shop { name } }', {}, Date.now() - 1),
    ).rejects.toMatchObject({ kind: 'unavailable', message: MESSAGES.timeout });
  });
});
