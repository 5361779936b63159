import type { AnalyticsDayJson, AnalyticsFeeBucketJson, AnalyticsFilterJson } from '../api';
import { adminLocale, formatCents } from '../money/money';

/**
 * The words the analytics use, shared by the Dashboard's charts, their text
 * alternatives and the editors: the rates as Settings name them. A day's
 * checkouts split four ways that add up to its total (`bump` is a part of
 * `standard`: those answered both rates).
 */
export const OUTCOMES: readonly {
  label: string;
  of(day: AnalyticsDayJson): number;
  /** Its bars' colour, at least 3:1 against the card's white. */
  color: string;
}[] = [
  { label: 'Regular rate', of: (day) => day.standard - day.bump, color: '#0b6ec9' },
  { label: 'Regular and bump rate', of: (day) => day.bump, color: '#7a3ddb' },
  { label: 'Fallback rate', of: (day) => day.fallback, color: '#b35c00' },
  { label: 'No rate', of: (day) => day.noRate, color: '#c4213b' },
];

export const count = (n: number) => n.toLocaleString(adminLocale());

export const times = (n: number) => `${count(n)} time${n === 1 ? '' : 's'}`;

export const checkouts = (n: number) => `${count(n)} checkout${n === 1 ? '' : 's'}`;

/** A UTC day (YYYY-MM-DD) as "Nov 20". */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(adminLocale(), {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** A fee bucket in the shop's currency: "Free", "$0.01 to $5.00", "$100.01 or more". */
export function feeBucketLabel(bucket: AnalyticsFeeBucketJson, currency: string | null): string {
  if (bucket.toCents === 0) return 'Free';
  const from = formatCents(bucket.fromCents, currency);
  return bucket.toCents === null
    ? `${from} or more`
    : `${from} to ${formatCents(bucket.toCents, currency)}`;
}

/** What a filter's action did to the fee over its matches: "added $48.12", "took off $5.00". */
export function feeEffect(feeCents: number, currency: string | null): string | null {
  if (feeCents === 0) return null;
  const amount = formatCents(Math.abs(feeCents), currency);
  return feeCents > 0 ? `added ${amount}` : `took off ${amount}`;
}

/** "stopped here 300 · added $4,812.00": the secondary figures of a filter that matched. */
export function filterDetail(
  counts: { stopped: number; feeCents: number },
  currency: string | null,
): string {
  const fee = feeEffect(counts.feeCents, currency);
  return [`stopped here ${count(counts.stopped)}`, ...(fee ? [fee] : [])].join(' · ');
}

/** The editor of a filter's ruleset or product rule. */
export function editorUrl(filter: Pick<AnalyticsFilterJson, 'owner' | 'ownerId'>): string {
  const id = encodeURIComponent(filter.ownerId);
  return filter.owner === 'ruleset' ? `/edit-global-rule/${id}` : `/edit-product-rule/${id}`;
}

/** "Default (ruleset)", "Gift wrap (product rule)". */
export function ownerLabel(filter: Pick<AnalyticsFilterJson, 'owner' | 'ownerName'>): string {
  const name =
    filter.ownerName || (filter.owner === 'ruleset' ? 'Untitled ruleset' : 'Untitled product rule');
  return `${name} (${filter.owner === 'ruleset' ? 'ruleset' : 'product rule'})`;
}
