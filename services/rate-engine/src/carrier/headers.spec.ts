import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { carrierHeaders } from './headers';

let server: Server;
let seen: { raw: string[]; headers: IncomingHttpHeaders };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen = { raw: req.rawHeaders, headers: req.headers };
    req.resume();
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw header lines to a real node:http server: its rawHeaders and what req.headers makes of them. */
async function received(raw: string[]) {
  const port = (server.address() as AddressInfo).port;
  seen = { raw: [], headers: {} };
  const lines = ['POST /carrier/rates/x HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close'];
  for (let i = 0; i < raw.length; i += 2) lines.push(`${raw[i]}: ${raw[i + 1]}`);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`${lines.join('\r\n')}\r\n\r\n`));
    socket.on('data', () => undefined);
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  expect(seen.raw.length).toBeGreaterThan(0);
  const h = seen.headers;
  return {
    raw: seen.raw,
    node: {
      hmac: h['x-shopify-hmac-sha256'],
      shopDomain: h['x-shopify-shop-domain'],
      contentLength: h['content-length'],
    },
  };
}

describe('the carrier headers, read from the raw headers', () => {
  const cases: [string, string[]][] = [
    ['none of them', ['Host', 'x', 'Content-Type', 'application/json']],
    [
      'each once, in any case',
      [
        'X-Shopify-Hmac-SHA256',
        'c2ln',
        'x-shopify-shop-domain',
        'a.myshopify.com',
        'Content-Length',
        '42',
      ],
    ],
    [
      'a repeated signature is joined (and so never verifies)',
      ['X-Shopify-Hmac-Sha256', 'a', 'x-shopify-hmac-sha256', 'b'],
    ],
    ['a repeated shop is joined', ['X-Shopify-Shop-Domain', 'a', 'X-Shopify-Shop-Domain', 'b']],
    ['Content-Length in any case', ['CONTENT-LENGTH', '0']],
    ['an empty signature stays empty', ['X-Shopify-Hmac-Sha256', '']],
    [
      'names of the same length are not confused',
      ['x-shopify-hmac-sha257', 'no', 'x-shopify-shop-domaim', 'no', 'content-lengtx', '1'],
    ],
  ];
  it.each(cases)('%s: as req.headers gives them', async (_name, raw) => {
    const { raw: rawHeaders, node } = await received(raw);
    expect(carrierHeaders(rawHeaders)).toEqual(node);
  });

  it('finds the values (the comparison above can fail)', () => {
    expect(
      carrierHeaders([
        'X-Shopify-Hmac-Sha256',
        'a',
        'x-shopify-hmac-sha256',
        'b',
        'Content-Length',
        '7',
      ]),
    ).toEqual({ hmac: 'a, b', shopDomain: undefined, contentLength: '7' });
  });
});
