import { metrics, type Meter } from '@opentelemetry/api';

/**
 * The rules service's snapshot metrics, served on the health server's /metrics:
 *
 * - ratesmith_snapshot_publish_total: snapshot writes by result: `published`
 *   (reached the bucket), `superseded` (the bucket had this version or a newer one:
 *   tried again under a new version),
 *   `failed` (NATS refused or did not answer; the retry loop tries again);
 * - ratesmith_snapshots_unpublished: shops whose latest version had not reached
 *   the bucket at the retry loop's last pass: merchants' saves checkout does not
 *   see yet (the RatesmithSnapshotsUnpublished alert).
 */
export type PublishResult = 'published' | 'superseded' | 'failed';

export interface SnapshotMetrics {
  published(result: PublishResult): void;
  unpublished(shops: number): void;
}

const RESULTS: Record<PublishResult, { result: PublishResult }> = {
  published: { result: 'published' },
  superseded: { result: 'superseded' },
  failed: { result: 'failed' },
};

export function createSnapshotMetrics(
  meter: Meter = metrics.getMeter('ratesmith-rules'),
): SnapshotMetrics {
  const writes = meter.createCounter('ratesmith.snapshot.publish', {
    description: 'Snapshot writes to the bucket by result: published, superseded or failed.',
  });
  let backlog = 0;
  meter
    .createObservableGauge('ratesmith.snapshots.unpublished', {
      description:
        "Shops whose latest snapshot had not reached the bucket at the retry loop's last pass.",
    })
    .addCallback((result) => result.observe(backlog));
  return {
    published: (result) => writes.add(1, RESULTS[result]),
    unpublished: (shops) => {
      backlog = shops;
    },
  };
}
