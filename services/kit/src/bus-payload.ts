import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
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
        'Please make it smaller, for example with fewer filters or conditions.',
    );
  }
  return { data, gzipped };
}

/** The body as it was packed. */
export async function unpackBody(
  data: Uint8Array,
  encoding: string | undefined,
): Promise<Uint8Array> {
  return encoding === 'gzip' ? new Uint8Array(await gunzipAsync(data)) : data;
}
