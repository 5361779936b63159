import { metrics, type Meter } from '@opentelemetry/api';

/**
 * The rules service's snapshot metrics, served on the health server's /metrics:
 *
 * - ratesmith_snapshot_publish_total: snapshot writes by result: `published`
 *   (reached the bucket), `superseded` (the bucket had this version or a newer one:
 *   tried again under a new version),
 *   `failed` (NATS refused or did not answer; the retry loop tries again);
 * - ratesmith_snapshot_builds_total: snapshots built, by `from`: `previous` (the
 *   change applied to the bucket's snapshot of the version before it) or `database`
 *   (every part read from MongoDB);
 * - ratesmith_snapshots_unpublished: shops whose latest version had not reached
 *   the bucket at the retry loop's last pass: merchants' saves checkout does not
 *   see yet (the RatesmithSnapshotsUnpublished alert).
 */
export type PublishResult = 'published' | 'superseded' | 'failed';

export type BuiltFrom = 'previous' | 'database';

export interface SnapshotMetrics {
  published(result: PublishResult): void;
  built(from: BuiltFrom): void;
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
  const builds = meter.createCounter('ratesmith.snapshot.builds', {
    description:
      "Snapshots built, from the bucket's previous snapshot and the change, or from the database.",
  });
  const FROM: Record<BuiltFrom, { from: BuiltFrom }> = {
    previous: { from: 'previous' },
    database: { from: 'database' },
  };
  let backlog = 0;
  meter
    .createObservableGauge('ratesmith.snapshots.unpublished', {
      description:
        "Shops whose latest snapshot had not reached the bucket at the retry loop's last pass.",
    })
    .addCallback((result) => result.observe(backlog));
  return {
    published: (result) => writes.add(1, RESULTS[result]),
    built: (from) => builds.add(1, FROM[from]),
    unpublished: (shops) => {
      backlog = shops;
    },
  };
}
