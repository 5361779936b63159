import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { notFound } from './errors';

/** Content codings the gateway serves, best first. */
export type Coding = 'br' | 'gzip' | 'identity';
const PREFERENCE: Coding[] = ['br', 'gzip', 'identity'];

/**
 * The coding to answer a request's Accept-Encoding with: of br, gzip and
 * identity, the one with the highest q-value that is on offer, ties going to
 * the smaller (br, then gzip). `*` stands for codings the header does not
 * name; identity is acceptable unless refused by name (or by `*;q=0`), but
 * ranks below every coding the header names with a q above 0.001. If
 * nothing on offer is acceptable, identity anyway: the bytes are still right.
 */
export function negotiateEncoding(header: string | undefined, offered: Coding[]): Coding {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0);
  }
  const star = q.get('*');
  const qOf = (coding: Coding) =>
    q.get(coding) ??
    (coding === 'gzip' ? q.get('x-gzip') : undefined) ??
    star ??
    // Acceptable unless refused, but below any coding the client named.
    (coding === 'identity' ? 0.001 : 0);
  let best: Coding = 'identity';
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    if (!offered.includes(coding)) continue;
    const value = qOf(coding);
    if (value > bestQ) [best, bestQ] = [coding, value];
  }
  return best;
}

/** One resource in each coding it is available in. */
export interface Representations {
  type: string;
  bodies: Partial<Record<Coding, Buffer>> & { identity: Buffer };
}

/** A text compressed now, at the levels of the build's precompression (frontend/scripts/precompress.mjs). */
export function compressedText(text: string, type: string): Representations {
  const identity = Buffer.from(text);
  return {
    type,
    bodies: {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      br: brotliCompressSync(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
    },
  };
}

/**
 * Answers with the representation the client accepts best: Content-Encoding,
 * Vary, Content-Type and Content-Length of the bytes sent, a strong ETag per
 * coding (304 on If-None-Match), and no body for HEAD. `compress: false`
 * sends identity only (the uncompressed baseline of `npm run bench:lighthouse`).
 */
export function sendRepresentation(
  req: Request,
  res: Response,
  resource: Representations,
  cacheControl: string,
  compress: boolean,
): void {
  const offered = (Object.keys(resource.bodies) as Coding[]).filter(
    (coding) => compress || coding === 'identity',
  );
  const coding = negotiateEncoding(req.headers['accept-encoding'], offered);
  const body = resource.bodies[coding]!;
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  res.setHeader('cache-control', cacheControl);
  res.setHeader('vary', 'Accept-Encoding');
  res.setHeader('content-type', resource.type);
  res.setHeader('etag', etag);
  if (coding !== 'identity') res.setHeader('content-encoding', coding);
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('content-length', body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/** A year: what a content-hashed file can be kept for, since a new build gives it a new name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `/assets/*` of the built frontend: Vite's content-hashed files, held in
 * memory from startup with the `.br` and `.gz` the build wrote beside them
 * (frontend/package.json `build`). Only files found in the folder at startup
 * are served, so no request path can reach outside it; any other path under
 * /assets is a 404, never the app shell.
 */
export function hashedAssets(assetsDir: string, options: { compress: boolean }): RequestHandler {
  const assets = new Map<string, Representations>();
  if (existsSync(assetsDir)) {
    const files = readdirSync(assetsDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(assetsDir, join(entry.parentPath, entry.name)).split(sep).join('/'));
    const present = new Set(files);
    for (const file of files) {
      if (/\.(br|gz)$/.test(file) && present.has(file.replace(/\.(br|gz)$/, ''))) continue;
      const read = (name: string) =>
        present.has(name) ? readFileSync(join(assetsDir, name)) : undefined;
      const bodies: Representations['bodies'] = { identity: read(file)! };
      const br = read(`${file}.br`);
      const gzip = read(`${file}.gz`);
      if (br) bodies.br = br;
      if (gzip) bodies.gzip = gzip;
      assets.set(`/${file}`, { type: contentType(file), bodies });
    }
  }
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const asset = assets.get(req.path);
    if (!asset) return notFound(req, res, next);
    sendRepresentation(req, res, asset, IMMUTABLE, options.compress);
  };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

function contentType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
