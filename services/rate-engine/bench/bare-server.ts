/**
 * Benchmark 2's baseline: a bare node:http server that reads the same body,
 * parses it as JSON and answers a fixed response of the same size as the
 * rate engine's. Usage: node bare-server.js <port> <response file>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const response = readFileSync(process.argv[3]!);
createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
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
