import type { Batch, DayDetail } from './entries';

/**
 * Splits a window's batch into batches of about `maxBytes` encoded bytes at
 * most, so none comes near NATS's message limit (1 MB by default) however
 * many shops and filters a window holds. A shop-day with more filters than
 * one batch holds is split too; its fee buckets go with its first part only,
 * so the rules service's `$inc` adds every figure exactly once.
 *
 * Sizes are estimated from above (each field's bytes plus a generous
 * allowance for protobuf's tags and lengths), never encoded here: the
 * recorder's timer does this for up to 200,000 filter counts.
 */
export function splitBatch(batch: Batch, maxBytes: number): Batch[] {
  const out: Batch[] = [];
  let current = empty();
  let bytes = 0;
  const room = (size: number) => {
    if (bytes + size > maxBytes && bytes > 0) {
      out.push(current);
      current = empty();
      bytes = 0;
    }
    bytes += size;
  };
  for (const r of batch.recent) {
    room(
      ENTRY +
        text(r.shop) +
        FIELDS * (r.lines?.length ?? 0) +
        (r.trace?.length ?? 0) +
        (r.rates ?? []).reduce((n, rate) => n + ENTRY + text(rate.serviceName) + FIELDS, 0),
    );
    current.recent.push(r);
  }
  for (const c of batch.shadow) {
    const rates = [...(c.quoted ?? []), ...(c.native ?? [])];
    room(
      ENTRY +
        text(c.shop) +
        FIELDS * (c.lines?.length ?? 0) +
        rates.reduce((n, rate) => n + ENTRY + text(rate.serviceName) + FIELDS, 0),
    );
    current.shadow.push(c);
  }
  for (const c of batch.carts) {
    room(ENTRY + text(c.shop) + FIELDS * (c.lines?.length ?? 0));
    current.carts.push(c);
  }
  for (const c of batch.counts) {
    room(ENTRY + text(c.shop));
    current.counts.push(c);
  }
  for (const d of batch.details) {
    const header = ENTRY + text(d.shop) + FIELDS;
    room(header);
    let part: DayDetail = { ...d, filters: [] };
    current.details.push(part);
    for (const f of d.filters) {
      const size = ENTRY + text(f.ownerId) + text(f.filterId);
      if (bytes + size > maxBytes) {
        room(header + size);
        // The rest of this shop-day, without the fee buckets its first part carries.
        part = { shop: d.shop, day: d.day, feeBuckets: [], filters: [] };
        current.details.push(part);
      } else bytes += size;
      part.filters.push(f);
    }
  }
  if (bytes > 0) out.push(current);
  return out;
}

/** A message's tags, lengths and small numbers (day, counts, enums), from above. */
const ENTRY = 64;
/** A cart line's five numbers or a fee-buckets array, from above. */
const FIELDS = 48;
const text = (s: string | undefined) => Buffer.byteLength(s ?? '');
const empty = (): Batch => ({ counts: [], carts: [], recent: [], details: [], shadow: [] });
