import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { metrics } from '@opentelemetry/api';
import { AppError } from './errors';
import type { NatsConnection } from './nats';

/**
 * Message bodies on the bus that grow with a merchant's data (filters above
 * all) and NATS's `max_payload` (1 MB by default, docs/architecture.md,
 * "Message sizes"): a body over COMPRESS_ABOVE travels gzipped (filters
 * shrink about 5 to 1), and one still over the server's limit is refused
 * before it is sent, with a message a merchant can act on, instead of NATS's
 * own error (a 503 "cannot be reached" for a request, a 500 for a reply).
 */

/** Bodies over this are gzipped: smaller ones gain little and cost a little CPU. */
export const COMPRESS_ABOVE = 64 * 1024;

/** The header that marks a gzipped body (absent: the body is as it is). */
export const ENCODING_HEADER = 'Ratesmith-Encoding';

/** Room left under max_payload for the headers (trace context, request id, encoding). */
const HEADER_ROOM = 4 * 1024;

/** NATS's default max_payload, for a connection that has not said its server's yet. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * The most a gzipped body may unpack to: 8 times NATS's default max_payload.
 * The largest bodies the limits allow (a ruleset at 100 filters of 50
 * conditions: 2.8 MB of JSON) shrink about 5 to 1 to fit one message, so a
 * real body stays well under this; a body that would unpack past it is a
 * decompression bomb (a few hundred KB of zeros can make gigabytes).
 */
export const MAX_UNPACKED = 8 * DEFAULT_MAX_PAYLOAD;

/** Served on /metrics as ratesmith_bus_payload_refused_total{reason}. */
const refusedBodies = metrics
  .getMeter('ratesmith-bus')
  .createCounter('ratesmith.bus.payload.refused', {
    description:
      'Bus bodies refused before decoding: too_large (unpacks past MAX_UNPACKED), ' +
      'not_compressible (gzipped for a method whose bodies are never large).',
  });

/** Counts a refused body (the reason is one of a closed set, so the metric stays small). */
export function countRefusedBody(reason: 'too_large' | 'not_compressible'): void {
  refusedBodies.add(1, { reason });
}

/** The largest body this connection's server takes, headers' room left aside. */
export function maxBody(nc: NatsConnection): number {
  return (nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) - HEADER_ROOM;
}

/** "1.6 MB": sizes in the merchant's messages. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The body as it travels (gzipped when large) and whether it is gzipped; an
 * AppError (invalid_data) when even that is over `limit`. `what` begins the
 * message: "This request", "This answer".
 */
export async function packBody(
  body: Uint8Array,
  limit: number,
  what: string,
): Promise<{ data: Uint8Array; gzipped: boolean }> {
  if (body.length <= COMPRESS_ABOVE) return { data: body, gzipped: false };
  const zipped = new Uint8Array(await gzipAsync(body));
  const gzipped = zipped.length < body.length;
  const data = gzipped ? zipped : body;
  if (data.length > limit) {
    throw new AppError(
      'invalid_data',
      `${what} is too large to send between Ratesmith's services ` +
        `(${megabytes(data.length)}${gzipped ? ' compressed' : ''}, at most ${megabytes(limit)}). ` +
        'Please make it smaller, for example with fewer rules or conditions.',
    );
  }
  return { data, gzipped };
}

/**
 * The body as it was packed. A gzipped body that would unpack past
 * MAX_UNPACKED stops there (zlib's own output cap, so no more than that is
 * ever held) and is refused as invalid_data, counted as too_large.
 */
export async function unpackBody(
  data: Uint8Array,
  encoding: string | undefined,
): Promise<Uint8Array> {
  if (encoding !== 'gzip') return data;
  try {
    return new Uint8Array(await gunzipAsync(data, { maxOutputLength: MAX_UNPACKED }));
  } catch (cause) {
    if ((cause as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      countRefusedBody('too_large');
      throw new AppError(
        'invalid_data',
        `The message unpacks to more than ${megabytes(MAX_UNPACKED)}.`,
        [],
        { cause },
      );
    }
    throw cause;
  }
}
