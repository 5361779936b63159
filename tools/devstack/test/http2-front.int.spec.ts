import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { startHttp2Front, type Http2Front } from '../src/http2-front';

/** The HTTP/2 front the Lighthouse bench measures through, against a real HTTP/1.1 app. */
let app: Server;
let front: Http2Front;
let session: ClientHttp2Session;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  app = createServer((req, res) => {
    seen.push(req);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.setHeader('connection', 'keep-alive');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('content-type', 'text/plain');
      res.writeHead(req.url === '/missing' ? 404 : 200);
      res.end(`${req.method} ${req.url} ${body}`);
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  front = await startHttp2Front({ port: (app.address() as AddressInfo).port });
  session = connect(front.url, { rejectUnauthorized: false });
});
afterAll(async () => {
  session?.close();
  await front?.stop();
  app?.closeAllConnections();
  await new Promise((resolve) => app?.close(resolve));
});

function call(path: string, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const stream = session.request({ ':method': method, ':path': path });
      let headers: Record<string, unknown> = {};
      let text = '';
      stream.on('response', (h) => (headers = h));
      stream.on('data', (d) => (text += d));
      stream.on('end', () =>
        resolve({ status: headers[constants.HTTP2_HEADER_STATUS] as number, headers, text }),
      );
      stream.on('error', reject);
      stream.end(body);
    },
  );
}

test('forwards method, path, body and status over HTTP/2, without hop-by-hop headers', async () => {
  const got = await call('/api/x?y=1', 'POST', 'hello');
  expect(got).toMatchObject({ status: 200, text: 'POST /api/x?y=1 hello' });
  expect(got.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  expect(got.headers.connection).toBeUndefined();
  expect((await call('/missing')).status).toBe(404);
  const forwarded = seen.at(-1)!;
  expect(forwarded.headers['x-forwarded-proto']).toBe('https');
  expect(forwarded.headers.host).toMatch(/^localhost:\d+$/);
});

test('many requests share one connection, as a browser does over HTTP/2', async () => {
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => call(`/n${i}`)));
  expect(answers.map((a) => a.text)).toEqual(answers.map((_, i) => `GET /n${i} `));
});

test('an app that is gone answers 502', async () => {
  const gone = await startHttp2Front({ port: 1 });
  const s = connect(gone.url, { rejectUnauthorized: false });
  try {
    const status = await new Promise((resolve, reject) => {
      const stream = s.request({ ':path': '/' });
      stream.on('response', (h) => resolve(h[constants.HTTP2_HEADER_STATUS]));
      stream.on('error', reject);
      stream.end();
    });
    expect(status).toBe(502);
  } finally {
    s.close();
    await gone.stop();
  }
});
