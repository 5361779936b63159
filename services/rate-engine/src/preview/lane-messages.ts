import type { PreparedSnapshot } from '../snapshots/store';

/**
 * The preview lane's own messages (./lane.ts, ./lane-worker.ts), beside kit's
 * answers and stop (services/kit/src/lane.ts).
 */
export type PreviewLaneMessage =
  /** To the lane: a large snapshot's bytes from the bucket, to unpack, check and compile. */
  | { type: 'decode'; id: number; value: Uint8Array }
  /** From the lane: the snapshot made ready for the cache (structured clone), or why it could not be. */
  | { type: 'decoded'; id: number; prepared?: PreparedSnapshot; error?: string }
  /** From the lane (kit's thread `ask`): a shop's snapshot, as a preview reads it fresh. */
  | { type: 'snapshot?'; shop: string }
  /** To the lane: the answer to its `snapshot?`: the shop's entry, none, or why it could not be read. */
  | { type: 'snapshot'; value?: Uint8Array; writtenAt?: number; error?: string };
