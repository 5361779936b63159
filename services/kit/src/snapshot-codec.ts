import { gunzipSync, gzipSync } from 'node:zlib';
import type { Snapshot } from '@ratesmith/contracts';
import { COMPRESS_ABOVE, countRefusedBody, MAX_UNPACKED } from './bus-payload';

/**
 * A shop's snapshot as the KV bucket holds it: its JSON, gzipped when over
 * COMPRESS_ABOVE (a large ruleset's JSON shrinks about 5 to 1, so the enabled
 * ruleset and product rules at their limits fit NATS's max_payload;
 * docs/architecture.md, "Message sizes"). JSON never begins with gzip's magic
 * bytes, so readers need no flag and snapshots written before stay readable.
 */
export function encodeSnapshot(snapshot: Snapshot): Uint8Array {
  const json = Buffer.from(JSON.stringify(snapshot));
  return new Uint8Array(json.length > COMPRESS_ABOVE ? gzipSync(json) : json);
}

/**
 * The snapshot's JSON value, whichever way it was written (not yet checked
 * against the schema). A gzipped one that would unpack past MAX_UNPACKED
 * throws (zlib stops there): a snapshot at the limits is far smaller.
 */
export function decodeSnapshot(data: Uint8Array): unknown {
  const gzipped = data.length > 2 && data[0] === 0x1f && data[1] === 0x8b;
  if (!gzipped) return JSON.parse(Buffer.from(data).toString('utf8'));
  let json: Buffer;
  try {
    json = gunzipSync(data, { maxOutputLength: MAX_UNPACKED });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') countRefusedBody('too_large');
    throw err;
  }
  return JSON.parse(json.toString('utf8'));
}
