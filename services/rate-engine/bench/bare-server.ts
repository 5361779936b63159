/**
 * Benchmark 2's baseline: a bare node:http server that reads the same body,
 * parses it as JSON and answers a fixed response of the same size as the
 * rate engine's. Given a secret, it first checks the body's
 * X-Shopify-Hmac-Sha256 as the engine does (signatureValid), and answers 401
 * when it does not verify: what any server that checks Shopify's signature
 * must do at least. Usage: node bare-server.js <port> <response file> [secret]
 */
import { createSecretKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { signatureValid } from '@ratesmith/rate-engine/carrier/server';

const port = Number(process.argv[2]);
const response = readFileSync(process.argv[3]!);
const secret = process.argv[4] ? createSecretKey(Buffer.from(process.argv[4], 'utf8')) : undefined;
createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const header = req.headers['x-shopify-hmac-sha256'];
    if (secret && !(typeof header === 'string' && signatureValid(body, header, secret))) {
      res.writeHead(401, { 'content-length': 0 });
      res.end();
      return;
    }
    JSON.parse(body.toString('utf8'));
    res.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'content-length': response.length,
    });
    res.end(response);
  });
}).listen(port, '127.0.0.1');
// A clean exit on the benchmark's stop, so a run under --cpu-prof writes this profile too.
process.on('SIGTERM', () => process.exit(0));
