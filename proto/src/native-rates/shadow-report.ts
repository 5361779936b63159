import type { ShadowCartJson, ShadowReportReply, ShadowVerdict } from '../edge';

/**
 * The shadow report (docs/shopify.md, "Shadow mode"): how each cart seen in
 * shadow compares, Ratesmith's regular rate against the cheapest native rate
 * (the one checkout selects by default), and the figures the admin shows.
 */

/** Largest differences the report lists. */
export const SHADOW_LARGEST = 20;

/** Upper bounds (cents, inclusive) of the distribution's ranges below zero and above it. */
const EDGES = [100, 500, 1000, 2000];

export function shadowVerdict(
  ratesmith: number | null,
  native: number | null,
): { verdict: ShadowVerdict; difference: number | null } {
  if (ratesmith === null)
    return { verdict: native === null ? 'same' : 'no_rate', difference: null };
  if (native === null) return { verdict: 'only_ratesmith', difference: null };
  const difference = ratesmith - native;
  const verdict = difference === 0 ? 'same' : difference < 0 ? 'cheaper' : 'dearer';
  return { verdict, difference };
}

/** Ranges: …−2001, −2000…−1001, …, −100…−1, 0, 1…100, …, 2001… */
function ranges(): { from: number | null; to: number | null; count: number }[] {
  const out = [
    { from: null, to: -(EDGES[EDGES.length - 1]! + 1) },
    ...EDGES.slice()
      .reverse()
      .map((edge, i, all) => ({ from: -edge, to: -((all[i + 1] ?? 0) + 1) })),
    { from: 0, to: 0 },
    ...EDGES.map((edge, i) => ({ from: (EDGES[i - 1] ?? 0) + 1, to: edge })),
    { from: EDGES[EDGES.length - 1]! + 1, to: null },
  ];
  return out.map((r) => ({ ...r, count: 0 }));
}

type Counts = Pick<ShadowReportReply, 'seen' | 'counts' | 'distribution' | 'largest'>;

/** The report's figures over the carts seen (their verdicts as made when recorded). */
export function shadowFigures(carts: readonly ShadowCartJson[]): Counts {
  const counts: Record<ShadowVerdict, number> = {
    same: 0,
    cheaper: 0,
    dearer: 0,
    no_rate: 0,
    only_ratesmith: 0,
  };
  const distribution = ranges();
  const priced: ShadowCartJson[] = [];
  for (const cart of carts) {
    counts[cart.verdict]++;
    if (cart.difference === null) continue;
    priced.push(cart);
    const d = cart.difference;
    const range = distribution.find((r) => (r.from ?? -Infinity) <= d && d <= (r.to ?? Infinity));
    range!.count++;
  }
  const largest = priced
    .filter((c) => c.difference !== 0)
    .sort((a, b) => Math.abs(b.difference!) - Math.abs(a.difference!) || (a.at < b.at ? -1 : 1))
    .slice(0, SHADOW_LARGEST);
  return { seen: carts.length, counts, distribution, largest };
}
