import type { Snapshot } from '@ratesmith/contracts';

/**
 * The preview lane's own messages (./lane.ts, ./lane-worker.ts), beside kit's
 * answers and stop (services/kit/src/lane.ts).
 */
export type PreviewLaneMessage =
  /** To the lane: a large snapshot's bytes from the bucket, to unpack and check. */
  | { type: 'decode'; id: number; value: Uint8Array }
  /** From the lane: the snapshot as parseSnapshot made it (structured clone), or why it is unreadable. */
  | { type: 'decoded'; id: number; snapshot?: Snapshot; error?: string }
  /** From the lane: it asks for a shop's snapshot (a preview reads it fresh); `ask` numbers its questions. */
  | { type: 'snapshot?'; ask: number; shop: string }
  /** To the lane: the answer to its `snapshot?`: the shop's entry, none, or why it could not be read. */
  | { type: 'snapshot'; ask: number; value?: Uint8Array; writtenAt?: number; error?: string };
