import { GraphqlQueryError, HttpInternalError, HttpThrottlingError } from '@shopify/shopify-api';
import { throttledWait } from './admin-client';

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
