import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { createLogger } from './logger';
import { isSecretParam, REDACTED, RedactingSpanExporter, redactText } from './redact';

const R = REDACTED;

describe('redactText', () => {
  it.each(['code', 'hmac', 'state', 'id_token', 'session', 'host', 'signature'])(
    'redacts the value of %s in a URL',
    (name) => {
      expect(
        redactText(`https://app.example.com/auth/callback?${name}=s3cr3t&shop=a.myshopify.com`),
      ).toBe(`https://app.example.com/auth/callback?${name}=${R}&shop=a.myshopify.com`);
      expect(redactText(`/x?shop=a.myshopify.com&${name}=s3cr3t`)).toBe(
        `/x?shop=a.myshopify.com&${name}=${R}`,
      );
    },
  );

  it.each([
    'access_token',
    'refresh_token',
    'subject_token',
    'token',
    'sessionToken',
    'X-Amz-Security-Token',
    'client_secret',
    'api_key',
    'password',
  ])('redacts any token- or secret-like parameter: %s', (name) => {
    expect(redactText(`/x?${name}=s3cr3t&a=1`)).toBe(`/x?${name}=${R}&a=1`);
  });

  it('keeps parameters that are no secret, and the timestamp', () => {
    const url = '/api/verify?shop=a.myshopify.com&timestamp=1700000000&embedded=1&locale=en';
    expect(redactText(url)).toBe(url);
  });

  it('redacts every repeated parameter', () => {
    expect(redactText('/cb?code=one&code=two&shop=s&code=three')).toBe(
      `/cb?code=${R}&code=${R}&shop=s&code=${R}`,
    );
  });

  it('redacts percent-encoded values whole, padding included', () => {
    expect(redactText('/cb?code=a%2Fb%3D%3D&host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvYQ==&x=1')).toBe(
      `/cb?code=${R}&host=${R}&x=1`,
    );
    expect(redactText('/cb?state=a+b+c')).toBe(`/cb?state=${R}`);
  });

  it('judges percent-encoded and array-style names by their decoded name', () => {
    expect(redactText('/cb?id%5Ftoken=abc&code[]=def')).toBe(`/cb?id%5Ftoken=${R}&code[]=${R}`);
    expect(isSecretParam('ID_TOKEN')).toBe(true);
    expect(isSecretParam('%E0%A4%A')).toBe(false);
    expect(isSecretParam('shop')).toBe(false);
  });

  it('redacts a bare query string (url.query) and a fragment', () => {
    expect(redactText('code=abc&shop=s&hmac=def')).toBe(`code=${R}&shop=s&hmac=${R}`);
    expect(redactText('/cb#access_token=abc&x=1')).toBe(`/cb#access_token=${R}&x=1`);
  });

  it('redacts a URL nested in another parameter, raw or encoded', () => {
    expect(redactText('/login?next=/cb?code=abc')).toBe(`/login?next=/cb?code=${R}`);
    const nested = encodeURIComponent('https://app/auth/callback?code=abc&state=def&shop=s');
    const out = redactText(`/admin/oauth/authorize?client_id=k&redirect_uri=${nested}`);
    expect(out).not.toContain('abc');
    expect(out).not.toContain('def');
    expect(decodeURIComponent(out)).toContain(`code=${R}&state=${R}&shop=s`);
  });

  it('redacts the rate key after /carrier/rates/, keeping a route template', () => {
    const key = 'Zk3q9vT0aW1xYpL2mN8bQa';
    expect(redactText(`/carrier/rates/${key}`)).toBe(`/carrier/rates/${R}`);
    expect(redactText(`http://127.0.0.1:8082/carrier/rates/${key}?x=1`)).toBe(
      `http://127.0.0.1:8082/carrier/rates/${R}?x=1`,
    );
    expect(redactText(`POST /Carrier/Rates/${key}/`)).toBe(`POST /Carrier/Rates/${R}/`);
    expect(redactText(`callback=https%3A%2F%2Fr%2Fcarrier%2Frates%2F${key}`)).not.toContain(key);
    expect(redactText('POST /carrier/rates/:rateKey')).toBe('POST /carrier/rates/:rateKey');
  });

  it('leaves text without a query or carrier path alone', () => {
    for (const text of ['GET', 'GET /api/global-rules', '/auth/callback', 'db.rulesets.find', ''])
      expect(redactText(text)).toBe(text);
  });

  it('is idempotent', () => {
    const once = redactText('/cb?code=a&state=b&x=/carrier/rates/k');
    expect(redactText(once)).toBe(once);
  });

  it('keeps a JSON log line valid', () => {
    const line = JSON.stringify({ msg: 'went to /cb?code=a"b\\c&x=1', url: 'state=xyz', n: 1 });
    const out = JSON.parse(redactText(line));
    expect(out.msg).not.toContain('a"b');
    expect(out.url).toBe(`state=${R}`);
    expect(out.n).toBe(1);
  });
});

describe('RedactingSpanExporter', () => {
  function span(name: string, attributes: ReadableSpan['attributes']): ReadableSpan {
    const context = { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 };
    return {
      name,
      kind: SpanKind.CLIENT,
      spanContext: () => context,
      startTime: [1, 0],
      endTime: [2, 0],
      status: { code: 2, message: 'fetch /cb?code=abc failed' },
      attributes,
      links: [],
      events: [
        {
          time: [1, 5],
          name: 'exception',
          attributes: { 'exception.message': 'at /carrier/rates/KEY' },
        },
      ],
      duration: [1, 0],
      ended: true,
      resource: {} as ReadableSpan['resource'],
      instrumentationScope: { name: 'test' },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  }

  it('exports spans with name, attributes, events and status message redacted', async () => {
    const memory = new InMemorySpanExporter();
    const exporter = new RedactingSpanExporter(memory);
    const given = span('GET /cb?state=xyz', {
      'url.full': 'http://shop/admin/oauth/authorize?state=xyz&client_id=k',
      'url.path': '/carrier/rates/KEY',
      'url.query': 'code=abc&hmac=def',
      'http.response.status_code': 200,
      'some.list': ['?token=t', 'plain'],
    });
    const result = await new Promise((resolve) => exporter.export([given], resolve));
    expect(result).toEqual({ code: 0 });
    const [out] = memory.getFinishedSpans();
    expect(out!.name).toBe(`GET /cb?state=${R}`);
    expect(out!.attributes).toEqual({
      'url.full': `http://shop/admin/oauth/authorize?state=${R}&client_id=k`,
      'url.path': `/carrier/rates/${R}`,
      'url.query': `code=${R}&hmac=${R}`,
      'http.response.status_code': 200,
      'some.list': [`?token=${R}`, 'plain'],
    });
    expect(out!.status.message).toBe(`fetch /cb?code=${R} failed`);
    expect(out!.events[0]!.attributes).toEqual({ 'exception.message': `at /carrier/rates/${R}` });
    expect(out!.spanContext()).toEqual(given.spanContext());
    // The span the SDK holds is left as it was.
    expect(given.attributes['url.query']).toBe('code=abc&hmac=def');
    await exporter.shutdown();
  });
});

describe('createLogger redaction', () => {
  function capture() {
    const lines: string[] = [];
    const logger = createLogger('test', 'trace', { write: (s: string) => void lines.push(s) });
    return { logger, lines };
  }

  it('redacts secret fields by name, top level, nested and in headers', () => {
    const { logger, lines } = capture();
    logger.child({ request_id: 'r' }).info(
      {
        refresh_token: 'R1',
        sessionToken: 'S1',
        code: 'C1',
        'x-shopify-hmac-sha256': 'H1',
        session: { accessToken: 'A1', id_token: 'I1' },
        req: { query: { code: 'C2' }, headers: { cookie: 'K1', 'x-shopify-access-token': 'T1' } },
        err: { code: 'ECONNREFUSED' },
      },
      'x',
    );
    const line = lines.join('');
    for (const secret of ['R1', 'S1', 'C1', 'H1', 'A1', 'I1', 'C2', 'K1', 'T1'])
      expect(line).not.toContain(`"${secret}"`);
    expect(JSON.parse(line).err.code).toBe('ECONNREFUSED');
  });

  it('scrubs query values and rate keys inside any string of the line', () => {
    const { logger, lines } = capture();
    logger.info({ url: '/auth/callback?code=abc&shop=s' }, 'callback to /carrier/rates/KEY1');
    logger.warn(new Error('GET http://x/?state=st4t3 failed'));
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(first.url).toBe(`/auth/callback?code=${R}&shop=s`);
    expect(first.msg).toBe(`callback to /carrier/rates/${R}`);
    expect(lines.join('')).not.toContain('st4t3');
    expect(second.err.message).toBe(`GET http://x/?state=${R} failed`);
  });
});
