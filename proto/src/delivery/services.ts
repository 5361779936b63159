import { isAmountInRange, LIMITS } from '../filters/limits';
import { calendarProblems, windowProblems } from './calendar';

/**
 * The checks of the settings that shape a quote's services and dates
 * (docs/rates.md, "Upgrades" and "Delivery dates"), with the merchant's
 * messages: the rules service runs them on save, the rate engine on every
 * snapshot it compiles, the Settings page on every change, so all three say
 * the same.
 */

export const UPGRADE_LIMITS = {
  /** Upgrades after the regular and bump rates. */
  count: 3,
  name: 100,
  description: LIMITS.shortText,
} as const;

/** The service code of the i-th upgrade (from 0). */
export function upgradeCode(index: number): `RATESMITH_UPGRADE_${number}` {
  return `RATESMITH_UPGRADE_${index + 1}`;
}

/** How messages name the i-th upgrade (from 0). */
export const upgradeLabel = (index: number) => `Service ${index + 1}`;

export const REGULAR_WINDOW_LABEL = "The regular rate's delivery window";
export const BUMP_WINDOW_LABEL = "The bump rate's delivery window";

/** What is wrong with the upgrades (texts already trimmed), one sentence a problem; empty when valid. */
export function upgradeProblems(upgrades: unknown): string[] {
  if (!Array.isArray(upgrades)) return ['The extra services must be a list.'];
  const problems: string[] = [];
  if (upgrades.length > UPGRADE_LIMITS.count)
    problems.push(
      `At most ${UPGRADE_LIMITS.count} extra services can be offered; there are ${upgrades.length}.`,
    );
  upgrades.slice(0, UPGRADE_LIMITS.count).forEach((upgrade: unknown, i) => {
    const label = upgradeLabel(i);
    if (typeof upgrade !== 'object' || upgrade === null) {
      problems.push(`${label} is missing.`);
      return;
    }
    const u = upgrade as Record<string, unknown>;
    if (typeof u.name !== 'string' || u.name === '') problems.push(`${label} needs a name.`);
    else if (u.name.length > UPGRADE_LIMITS.name)
      problems.push(`${label}'s name must be at most ${UPGRADE_LIMITS.name} characters.`);
    if (typeof u.description !== 'string' || u.description.length > UPGRADE_LIMITS.description)
      problems.push(
        `${label}'s description must be at most ${UPGRADE_LIMITS.description} characters.`,
      );
    if (u.action !== 1 && u.action !== 2)
      problems.push(`${label} must cost a percent or a static fee on top of the regular rate.`);
    if (!isAmountInRange(u.cost) || !Number.isFinite(u.cost))
      problems.push(
        `${label}'s cost must be a number from 0 to ${LIMITS.maxAmount.toLocaleString('en-US')}.`,
      );
    problems.push(
      ...windowProblems(u.delivery_min_days, u.delivery_max_days, `${label}'s delivery window`),
    );
  });
  return problems;
}

/** The calendar, the regular and bump windows and the upgrades of a shop's settings. */
export interface DeliverySettings {
  timezone: unknown;
  business_days: unknown;
  holidays: unknown;
  cutoff_time: unknown;
  processing_days: unknown;
  delivery_min_days: unknown;
  delivery_max_days: unknown;
  bump_delivery_min_days: unknown;
  bump_delivery_max_days: unknown;
  upgrades: unknown;
}

/** Every problem of the delivery calendar, the windows and the upgrades; empty when valid. */
export function deliverySettingsProblems(settings: DeliverySettings): string[] {
  return [
    ...calendarProblems(settings),
    ...windowProblems(settings.delivery_min_days, settings.delivery_max_days, REGULAR_WINDOW_LABEL),
    ...windowProblems(
      settings.bump_delivery_min_days,
      settings.bump_delivery_max_days,
      BUMP_WINDOW_LABEL,
    ),
    ...upgradeProblems(settings.upgrades),
  ];
}
