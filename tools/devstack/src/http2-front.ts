import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import {
  constants,
  createSecureServer,
  type IncomingHttpHeaders as Http2Headers,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBusTls } from './bus';

/**
 * A TLS front speaking HTTP/2 to browsers and HTTP/1.1 to the app behind it,
 * as the chart's ingress (ingress-nginx, HTTP/2 on by default on TLS) does in
 * production: for measuring page loads over the transport merchants get
 * (`LIGHTHOUSE_HTTP2=1 npm run bench:lighthouse`). Its certificate is made on
 * the spot for localhost; browsers must be told to accept it.
 */
export interface Http2Front {
  url: string;
  stop(): Promise<void>;
}

/** Headers of one hop only: HTTP/2 forbids them, and a proxy never forwards them. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'http2-settings',
]);

function forwardable(
  headers: IncomingHttpHeaders | Http2Headers,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(':') || HOP_BY_HOP.has(name)) continue;
    out[name] = value;
  }
  return out;
}

export async function startHttp2Front(target: { port: number }): Promise<Http2Front> {
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-h2-front-'));
  const tls = makeBusTls(dir);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const server = createSecureServer({
    key: readFileSync(tls.keyFile),
    cert: readFileSync(tls.certFile),
  });
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const fail = (stream: ServerHttp2Stream, status: number) => {
    if (!stream.headersSent && !stream.destroyed) stream.respond({ ':status': status });
    stream.end();
  };
  server.on('stream', (stream, headers) => {
    const upstream = request({
      host: '127.0.0.1',
      port: target.port,
      method: headers[constants.HTTP2_HEADER_METHOD] as string,
      path: headers[constants.HTTP2_HEADER_PATH] as string,
      headers: {
        ...forwardable(headers),
        host: headers[constants.HTTP2_HEADER_AUTHORITY] as string,
        'x-forwarded-proto': 'https',
      },
      agent,
      timeout: 30_000,
    });
    upstream.on('response', (res) => {
      if (stream.destroyed) return void res.resume();
      stream.respond({ ':status': res.statusCode ?? 502, ...forwardable(res.headers) });
      res.pipe(stream);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('error', () => fail(stream, 502));
    stream.on('error', () => upstream.destroy());
    stream.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}`,
    stop: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
