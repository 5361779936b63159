import { gunzipSync, gzipSync } from 'node:zlib';
import type { Snapshot } from '@ratesmith/contracts';
import { COMPRESS_ABOVE, countRefusedBody, MAX_UNPACKED } from './bus-payload';

/**
 * A JSON value as bytes: its JSON, gzipped when over COMPRESS_ABOVE (a large
 * ruleset's JSON shrinks about 5 to 1). JSON never begins with gzip's magic
 * bytes, so readers need no flag and values written unpacked stay readable.
 * Snapshots in the KV bucket and filter lists in MongoDB are kept so.
 */
export function packJson(value: unknown): Uint8Array {
  const json = Buffer.from(JSON.stringify(value));
  return new Uint8Array(json.length > COMPRESS_ABOVE ? gzipSync(json) : json);
}

/**
 * The JSON value packJson wrote, whichever way (not checked against any
 * schema). A gzipped one that would unpack past MAX_UNPACKED throws (zlib
 * stops there), after `onTooLarge`.
 */
export function unpackJson(data: Uint8Array, onTooLarge?: () => void): unknown {
  const gzipped = data.length > 2 && data[0] === 0x1f && data[1] === 0x8b;
  if (!gzipped)
    return JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.length).toString('utf8'));
  let json: Buffer;
  try {
    json = gunzipSync(data, { maxOutputLength: MAX_UNPACKED });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') onTooLarge?.();
    throw err;
  }
  return JSON.parse(json.toString('utf8'));
}

/**
 * A shop's snapshot as the KV bucket holds it (packJson: the enabled ruleset
 * and product rules at their limits fit NATS's max_payload;
 * docs/architecture.md, "Message sizes").
 */
export function encodeSnapshot(snapshot: Snapshot): Uint8Array {
  return packJson(snapshot);
}

/** The snapshot's JSON value (not yet checked against the schema); see unpackJson. */
export function decodeSnapshot(data: Uint8Array): unknown {
  return unpackJson(data, () => countRefusedBody('too_large'));
}
