import type { rulesV1 } from '@ratesmith/contracts';
import type { Batch } from './entries';

/**
 * A sent batch as the plain objects the recorder built (for specs): the sink
 * gets it decoded from the backlog's bytes, with protobuf's type names and
 * 64-bit integers as bigint.
 */
export function plainBatch(batch: rulesV1.RecordCheckoutOutcomesRequest): Batch {
  return JSON.parse(
    JSON.stringify(batch, (key, value: unknown) =>
      key === '$typeName' ? undefined : typeof value === 'bigint' ? Number(value) : value,
    ),
  ) as Batch;
}
