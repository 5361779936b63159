/**
 * The chart's copy of the bus grants (charts/ratesmith/files/bus-access.json): Helm
 * cannot run TypeScript, so the allow-lists of `busGrants` (services/kit/src/bus-access.ts)
 * are written out as JSON, and the chart renders the NATS server's `authorization`
 * block from them. charts/test fails while the committed file differs from this.
 */
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { busGrants, type BusAccessOptions, type BusGrant, type BusService } from '@ratesmith/kit';

export interface BusAccessFile {
  generatedBy: string;
  /** The NATS_SUBJECT_PREFIX the lists are for; the chart refuses another nats.subjectPrefix. */
  prefix: string;
  /** The SNAPSHOT_BUCKET the lists are for; the chart refuses another nats.snapshotBucket. */
  bucket: string;
  grants: Record<BusService, BusGrant>;
}

export const BUS_ACCESS_GENERATOR = 'npm run -s nats:users -- --bus-access';

export function busAccessFile(options: BusAccessOptions = {}): BusAccessFile {
  const prefix = options.prefix ?? '';
  const bucket = options.bucket ?? SNAPSHOT_BUCKET;
  return {
    generatedBy: `${BUS_ACCESS_GENERATOR} (from services/kit/src/bus-access.ts); do not edit`,
    prefix,
    bucket,
    grants: busGrants({ prefix, bucket }),
  };
}

/** The file's text, exactly as committed. */
export function busAccessFileText(options: BusAccessOptions = {}): string {
  return `${JSON.stringify(busAccessFile(options), null, 2)}\n`;
}
