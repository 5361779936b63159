import type { SnapshotFilter } from '@ratesmith/contracts';
import { packJson, unpackJson } from '@ratesmith/kit';
import { Schema } from 'mongoose';

/**
 * A filter list is stored packed (packJson: its JSON, gzipped past 64 KB) in
 * one binary field, not as nested documents. The database never looks inside a
 * list (every query is by id or shop; the list is checked by the filter language
 * before it is written), and a nested list costs the database a value per
 * condition on every read and write: on FerretDB a 100 × 50 list took 350 to
 * 500 ms to read or replace by `_id`, packed 8 to 9 ms (docs/performance.md,
 * "Filter lists packed"). Documents written before hold `filters` as nested
 * documents; they are read as they are and packed by their next write.
 */
export const packedFilterFields = {
  filters_packed: { type: Buffer },
  /** Nested, as written before packing: read, and removed by the next write. */
  filters: { type: [Schema.Types.Mixed], default: undefined },
} as const;

export interface PackedFilterDoc {
  filters_packed?: PackedBytes;
  filters?: SnapshotFilter[];
}

/** What the driver answers for a binary field: a BSON Binary (lean reads) or a Buffer. */
export type PackedBytes = Uint8Array | { buffer: Uint8Array };

/** The `$set` (and `$unset` of the nested form) that stores `filters`. */
export function filtersUpdate(filters: SnapshotFilter[]): {
  $set: { filters_packed: Buffer };
  $unset: { filters: '' };
} {
  return { $set: { filters_packed: packFilters(filters) }, $unset: { filters: '' } };
}

export function packFilters(filters: SnapshotFilter[]): Buffer {
  return packValue(filters);
}

/** The stored list, packed or nested; none stored: empty. */
export function storedFilters(doc: PackedFilterDoc): SnapshotFilter[] {
  return doc.filters_packed
    ? (unpackValue(doc.filters_packed) as SnapshotFilter[])
    : (doc.filters ?? []);
}

/** A value for a binary field (packJson); version contents are kept so too. */
export function packValue(value: unknown): Buffer {
  const packed = packJson(value);
  return Buffer.from(packed.buffer, packed.byteOffset, packed.length);
}

/** The value packValue stored. */
export function unpackValue(stored: PackedBytes): unknown {
  return unpackJson(stored instanceof Uint8Array ? stored : stored.buffer);
}
