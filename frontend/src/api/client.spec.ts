import { fakeGateway } from '../test-utils';
import { createApiClient, PREFETCH_KEEP_MS } from './client';
import { ApiError, isAbort, messageOf } from './errors';

describe('the api client', () => {
  it('resolves with the JSON of a successful answer and sends JSON bodies', async () => {
    const gw = fakeGateway({
      '/api/global-rules': { status: 200, body: { status: true, id: 'x' } },
    });
    await expect(gw.api.post('/api/global-rules', { name: 'A' })).resolves.toEqual({
      status: true,
      id: 'x',
    });
    expect(gw.calls[0]).toMatchObject({ method: 'POST', body: { name: 'A' } });
    expect(gw.calls[0]!.headers['content-type']).toBe('application/json');
  });

  it('adds query parameters, leaving out undefined ones', async () => {
    const gw = fakeGateway({ '/api/x': { status: 200, body: {} } });
    await gw.api.get('/api/x', { query: { a: 'b c', n: 2, gone: undefined } });
    expect(gw.calls[0]!.path).toBe('/api/x?a=b+c&n=2');
  });

  it("turns status false into an error carrying the server's message", async () => {
    const gw = fakeGateway({
      '/api/x': { status: 200, body: { status: false, message: 'Nope.' } },
    });
    const err = await gw.api.get('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(messageOf(err, 'Data Fetch Failed')).toBe('Nope.');
  });

  it('turns a non-2xx answer into an error with its status and errors list', async () => {
    const gw = fakeGateway({
      '/api/update/1': {
        status: 400,
        body: {
          status: false,
          message: 'Please fix the following errors:',
          errors: ['Rule #1 needs a name'],
        },
      },
    });
    const err = (await gw.api.post('/api/update/1', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(400);
    expect(err.errors).toEqual(['Rule #1 needs a name']);
    expect(messageOf(err, 'Failed to update rule')).toBe(
      'Please fix the following errors: Rule #1 needs a name',
    );
  });

  it("keeps a 400's problems by field, texts only", async () => {
    const gw = fakeGateway({
      '/api/settings': {
        status: 400,
        body: {
          status: false,
          message: 'The request is not valid.',
          errors: ['bump_shipping_cost: must be a number'],
          fields: { bump_shipping_cost: 'must be a number', odd: 3 },
        },
      },
      '/api/other': { status: 400, body: { status: false, message: 'No.', fields: ['x'] } },
    });
    const err = (await gw.api.post('/api/settings', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.fields).toEqual({ bump_shipping_cost: 'must be a number' });
    const other = (await gw.api.post('/api/other', {}).catch((e: unknown) => e)) as ApiError;
    expect(other.fields).toEqual({});
  });

  it('falls back to the screen default when the server said nothing', async () => {
    const gw = fakeGateway({ '/api/x': { status: 502, body: '' } });
    expect(
      messageOf(await gw.api.get('/api/x').catch((e: unknown) => e), 'Data Fetch Failed'),
    ).toBe('Data Fetch Failed');
  });

  it('sends a keepalive request when asked, and takes a 204 as an answer without a body', async () => {
    const sent: RequestInit[] = [];
    const noContent = (async (_: unknown, init: RequestInit) => {
      sent.push(init);
      return { ok: true, status: 204, text: async () => '' } as Response;
    }) as unknown as typeof fetch;
    const api = createApiClient({ tokens: { kind: 'none' }, fetch: noContent });
    await expect(api.post('/api/vitals', { page: '/' }, { keepalive: true })).resolves.toBe(
      undefined,
    );
    await api.get('/api/x');
    expect(sent.map((init) => init.keepalive)).toEqual([true, undefined]);
  });

  it('gives up after its timeout', async () => {
    const never = ((_: unknown, init: RequestInit) =>
      new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(new Error('aborted'))),
      )) as unknown as typeof fetch;
    const api = createApiClient({ tokens: { kind: 'none' }, fetch: never, timeoutMs: 20 });
    const err = (await api.get('/api/slow').catch((e: unknown) => e)) as ApiError;
    expect(err.details.timedOut).toBe(true);
    expect(messageOf(err, 'Data Fetch Failed')).toBe(
      'The server took too long to answer. Please try again.',
    );
  });

  it('in demo mode, sends a demo session token, fetched once and reused', async () => {
    const gw = fakeGateway({
      '/demo/session-token': { status: 200, body: { token: 't1', expires_in: 60 } },
      '/api/x': { status: 200, body: {} },
    });
    const api = createApiClient({
      tokens: { kind: 'demo', shop: 'a.myshopify.com', fetch: gw.fetch },
      fetch: gw.fetch,
    });
    await Promise.all([api.get('/api/x'), api.get('/api/x')]);
    expect(gw.calls.map((c) => c.path)).toEqual([
      '/demo/session-token?shop=a.myshopify.com',
      '/api/x',
      '/api/x',
    ]);
    expect(gw.calls[1]!.headers.authorization).toBe('Bearer t1');
  });

  it('takes the merchant to authorize again when Shopify refused the session', async () => {
    const opened: string[] = [];
    const authorize = 'https://shop-a.myshopify.com/admin/oauth/authorize?client_id=k&state=s';
    const fetch = (async () =>
      ({
        ok: false,
        status: 401,
        headers: new Headers({ 'X-Shopify-API-Request-Failure-Reauthorize-Url': authorize }),
        text: async () =>
          JSON.stringify({
            status: false,
            message: 'Shopify needs you to authorize Ratesmith again.',
          }),
      }) as Response) as typeof globalThis.fetch;
    const api = createApiClient({
      tokens: { kind: 'none' },
      fetch,
      openTop: (u) => opened.push(u),
    });
    const err = await api.get('/api/global-rules').catch((e: unknown) => e);
    expect(opened).toEqual([authorize]);
    expect(messageOf(err, 'Data Fetch Failed')).toBe(
      'Shopify needs you to authorize Ratesmith again.',
    );
  });

  it('does not navigate on a 401 without the authorize header', async () => {
    const opened: string[] = [];
    const fetch = (async () =>
      ({
        ok: false,
        status: 401,
        headers: new Headers(),
        text: async () => JSON.stringify({ status: false, message: 'Your session is not valid.' }),
      }) as Response) as typeof globalThis.fetch;
    const api = createApiClient({
      tokens: { kind: 'none' },
      fetch,
      openTop: (u) => opened.push(u),
    });
    await api.get('/api/global-rules').catch(() => undefined);
    expect(opened).toEqual([]);
  });

  describe('prefetch', () => {
    afterEach(() => jest.useRealTimers());

    it("answers the screen's own get of the same path and query once, with one request", async () => {
      const gw = fakeGateway({ '/api/global-rules/rules': { status: 200, body: { rules: [1] } } });
      gw.api.prefetch('/api/global-rules/rules', { query: { globalRuleId: 'a' } });
      expect(gw.calls.map((c) => c.path)).toEqual([]); // the token comes first: sent on the next tick
      await expect(
        gw.api.get('/api/global-rules/rules', { query: { globalRuleId: 'a' } }),
      ).resolves.toEqual({ rules: [1] });
      expect(gw.calls.map((c) => c.path)).toEqual(['/api/global-rules/rules?globalRuleId=a']);

      // Used once; another query is another request.
      await gw.api.get('/api/global-rules/rules', { query: { globalRuleId: 'a' } });
      await gw.api.get('/api/global-rules/rules', { query: { globalRuleId: 'b' } });
      expect(gw.calls.map((c) => c.path)).toEqual([
        '/api/global-rules/rules?globalRuleId=a',
        '/api/global-rules/rules?globalRuleId=a',
        '/api/global-rules/rules?globalRuleId=b',
      ]);
    });

    it('is asked again when it failed, and not used once older than PREFETCH_KEEP_MS', async () => {
      const replies: Parameters<typeof fakeGateway>[0] = {
        '/api/x': { status: 503, body: { status: false, message: 'Down.' } },
      };
      const gw = fakeGateway(replies);
      gw.api.prefetch('/api/x');
      await new Promise((r) => setTimeout(r, 0));
      replies['/api/x'] = { status: 200, body: { fresh: true } };
      await expect(gw.api.get('/api/x')).resolves.toEqual({ fresh: true });
      expect(gw.calls).toHaveLength(2);

      jest.useFakeTimers({ now: 0 });
      replies['/api/x'] = { status: 200, body: { n: 1 } };
      gw.api.prefetch('/api/x');
      await jest.advanceTimersByTimeAsync(PREFETCH_KEEP_MS + 1);
      replies['/api/x'] = { status: 200, body: { n: 2 } };
      await expect(gw.api.get('/api/x')).resolves.toEqual({ n: 2 });
      expect(gw.calls).toHaveLength(4);
    });

    it('is replaced by a later prefetch, and dropped by any write', async () => {
      const replies: Parameters<typeof fakeGateway>[0] = {
        '/api/x': { status: 200, body: { n: 1 } },
        'POST /api/x/restore': { status: 200, body: { status: true } },
      };
      const gw = fakeGateway(replies);
      gw.api.prefetch('/api/x');
      await new Promise((r) => setTimeout(r, 0));
      replies['/api/x'] = { status: 200, body: { n: 2 } };
      gw.api.prefetch('/api/x');
      await expect(gw.api.get('/api/x')).resolves.toEqual({ n: 2 });

      gw.api.prefetch('/api/x');
      await new Promise((r) => setTimeout(r, 0));
      await gw.api.post('/api/x/restore');
      replies['/api/x'] = { status: 200, body: { n: 3 } };
      await expect(gw.api.get('/api/x')).resolves.toEqual({ n: 3 });
      expect(gw.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
        'GET /api/x',
        'GET /api/x',
        'GET /api/x',
        'POST /api/x/restore',
        'GET /api/x',
      ]);
    });

    it("rejects the screen's get as an abort when its signal aborts first", async () => {
      const gw = fakeGateway({ '/api/x': { status: 200, body: {} } });
      gw.api.prefetch('/api/x');
      const controller = new AbortController();
      const reply = gw.api.get('/api/x', { signal: controller.signal });
      controller.abort();
      expect(isAbort(await reply.catch((e: unknown) => e))).toBe(true);
    });
  });
});
