/**
 * Delivery dates for a shipping rate: from the moment checkout asks for rates,
 * the shop's calendar (time zone, business days, holidays, order cutoff,
 * processing days) and a rate's delivery window in business days of transit,
 * the earliest and latest dates Shopify shows the buyer. The rules are in
 * docs/rates.md, "Delivery dates".
 *
 * Pure and dependency-free. Dates are counted as whole days since 1970-01-01
 * (a `CalendarDay`), never through a Date's local-time methods, so the
 * machine's own time zone cannot change an answer.
 */

/** The shop's calendar, as in its settings. */
export interface ShopCalendar {
  /** IANA time zone name, e.g. `America/New_York`. */
  timezone: string;
  /** ISO weekdays the shop ships on: 1 = Monday … 7 = Sunday. */
  business_days: number[];
  /** `YYYY-MM-DD` dates the shop does not ship on. Treated as read-only once used. */
  holidays: string[];
  /** `HH:MM`, 24-hour: orders from this time on count from the next business day. */
  cutoff_time: string | null;
  /** Business days between the order day and the ship day, 0 to 30. */
  processing_days: number;
}

/** A shop that never set its calendar has this one. */
export const DEFAULT_CALENDAR: ShopCalendar = {
  timezone: 'UTC',
  business_days: [1, 2, 3, 4, 5],
  holidays: [],
  cutoff_time: null,
  processing_days: 0,
};

/** Business days of transit after the ship day. */
export interface DeliveryWindow {
  min: number;
  max: number;
}

/** Whole days since 1970-01-01 (day 0, a Thursday). */
export type CalendarDay = number;

export const MAX_WINDOW_DAYS = 60;
export const MAX_PROCESSING_DAYS = 30;
export const MAX_HOLIDAYS = 100;

const DAY_MS = 86_400_000;
const NOON_MS = 43_200_000;

/** Both dates of one rate, each `YYYY-MM-DD 00:00:00 ±HHMM`. */
export function deliveryDates(
  now: Date,
  calendar: ShopCalendar,
  window: DeliveryWindow,
): { min: string; max: string } {
  return windowDates(shipDay(now, calendar), calendar, window);
}

/**
 * Both dates of one rate from a ship day already worked out (`shipDay`): a
 * quote with several windowed rates finds its ship day once.
 */
export function windowDates(
  ship: CalendarDay,
  calendar: ShopCalendar,
  window: DeliveryWindow,
): { min: string; max: string } {
  const minDay = addBusinessDays(ship, window.min, calendar);
  const min = formatDeliveryDate(minDay, calendar.timezone);
  if (window.max === window.min) return { min, max: min };
  const maxDay = addBusinessDays(ship, window.max, calendar);
  return { min, max: formatDeliveryDate(maxDay, calendar.timezone) };
}

/**
 * The day the order leaves: the order day (today when it is a business day
 * and the cutoff has not passed, else the next business day), then the
 * processing days. One ship day serves every rate of a quote.
 */
export function shipDay(now: Date, calendar: ShopCalendar): CalendarDay {
  const { processing_days: processing } = calendar;
  if (!Number.isInteger(processing) || processing < 0 || processing > MAX_PROCESSING_DAYS)
    throw new Error(`processing_days must be a whole number from 0 to 30, not ${processing}`);
  const instant = now.getTime();
  if (Number.isNaN(instant)) throw new Error('The request time is not a valid date');

  const wall = wallClockMs(formatterFor(calendar.timezone), instant);
  const today = Math.floor(wall / DAY_MS);
  const secondOfDay = Math.floor((wall - today * DAY_MS) / 1000);
  const cutoff = cutoffSecondOfDay(calendar.cutoff_time);

  const weekdays = weekdayMask(calendar.business_days);
  const holidays = holidaySet(calendar.holidays);
  const ordersToday = isBusinessDay(today, weekdays, holidays) && secondOfDay < cutoff;
  const orderDay = ordersToday ? today : nextBusinessDay(today, weekdays, holidays);
  return addBusinessDays(orderDay, processing, calendar);
}

/** `day` with "next business day" applied `n` times (0 to 60); `n` = 0 is `day` itself. */
export function addBusinessDays(day: CalendarDay, n: number, calendar: ShopCalendar): CalendarDay {
  if (!Number.isInteger(n) || n < 0 || n > MAX_WINDOW_DAYS)
    throw new Error(`Business days to add must be a whole number from 0 to 60, not ${n}`);
  const weekdays = weekdayMask(calendar.business_days);
  const holidays = holidaySet(calendar.holidays);
  let result = day;
  for (let i = 0; i < n; i++) result = nextBusinessDay(result, weekdays, holidays);
  return result;
}

/** `YYYY-MM-DD 00:00:00 ±HHMM`, with the zone's offset at 12:00 UTC of that date. */
export function formatDeliveryDate(day: CalendarDay, timezone: string): string {
  const noon = day * DAY_MS + NOON_MS;
  const offsetMinutes = Math.trunc((wallClockMs(formatterFor(timezone), noon) - noon) / 60_000);
  return `${isoDate(day)} 00:00:00 ${formatOffset(offsetMinutes)}`;
}

/** `YYYY-MM-DD` → its `CalendarDay`; undefined when it is not a real date so written. */
export function calendarDayOf(isoDateText: string): CalendarDay | undefined {
  const match = ISO_DATE.exec(isoDateText);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return daysFromCivil(year, month, day);
}

/** A `CalendarDay` as `YYYY-MM-DD` (years 0 to 9999). */
export function isoDate(day: CalendarDay): string {
  // Howard Hinnant's civil_from_days: exact for the proleptic Gregorian calendar.
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1;
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(dayOfMonth, 2)}`;
}

// ---- Counting business days ----

/** ISO weekday, 1 = Monday … 7 = Sunday. */
function isoWeekday(day: CalendarDay): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** Bit w set for each ISO weekday w in the list; cheap enough to rebuild per call. */
function weekdayMask(businessDays: readonly number[]): number {
  let mask = 0;
  for (const weekday of businessDays)
    if (Number.isInteger(weekday) && weekday >= 1 && weekday <= 7) mask |= 1 << weekday;
  return mask;
}

function isBusinessDay(day: CalendarDay, weekdays: number, holidays: ReadonlySet<number>): boolean {
  return (weekdays & (1 << isoWeekday(day))) !== 0 && !holidays.has(day);
}

function nextBusinessDay(
  day: CalendarDay,
  weekdays: number,
  holidays: ReadonlySet<number>,
): CalendarDay {
  // With one business weekday, each holiday can cost at most one week.
  const limit = 7 * (holidays.size + 1);
  for (let step = 1; step <= limit; step++)
    if (isBusinessDay(day + step, weekdays, holidays)) return day + step;
  throw new Error(
    `No business day within ${limit} days after ${isoDate(day)}: the calendar needs a business day that is not a holiday`,
  );
}

// Settings live long in memory; parsing the same list on every quote would not.
const holidaySets = new WeakMap<readonly string[], ReadonlySet<number>>();
const NO_HOLIDAYS: ReadonlySet<number> = new Set();

/** The holidays as days; an entry that is not a real date matches no day. */
function holidaySet(holidays: readonly string[]): ReadonlySet<number> {
  if (holidays.length === 0) return NO_HOLIDAYS;
  let set = holidaySets.get(holidays);
  if (!set) {
    const days = new Set<number>();
    for (const text of holidays) {
      const day = typeof text === 'string' ? calendarDayOf(text) : undefined;
      if (day !== undefined) days.add(day);
    }
    holidaySets.set(holidays, days);
    set = days;
  }
  return set;
}

/** Seconds after midnight; no cutoff is past every time of day. */
function cutoffSecondOfDay(cutoff: string | null): number {
  if (cutoff === null) return Infinity;
  const match = CUTOFF.exec(cutoff);
  if (!match) throw new Error(`cutoff_time must be HH:MM from 00:00 to 23:59, not ${cutoff}`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60;
}

// ---- Time zones ----

// A few hundred zones exist; the cap only guards against callers inventing names.
const MAX_FORMATTERS = 500;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = newFormatter(timezone);
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(timezone, formatter);
  }
  return formatter;
}

function newFormatter(timezone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US-u-ca-gregory-nu-latn', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    throw new Error(`Unknown time zone: ${timezone}`);
  }
}

/**
 * The zone's wall-clock reading at `instant`, written as if it were a UTC
 * time: divided into days it gives the local date, and less the instant it
 * is the zone's offset.
 */
function wallClockMs(formatter: Intl.DateTimeFormat, instant: number): number {
  // The formatter's numeric parts, by their names (its literals, the separators, are passed over).
  const read = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatter.formatToParts(instant))
    if (Object.hasOwn(read, part.type)) read[part.type as keyof typeof read] = Number(part.value);
  const { year, month, day, minute, second } = read;
  const hour = read.hour % 24; // some ICU versions write midnight as 24
  const wall =
    daysFromCivil(year, month, day) * DAY_MS + (hour * 3600 + minute * 60 + second) * 1000;
  // The wall clock has no milliseconds; drop the instant's too so the offset is exact.
  return wall + (instant - Math.floor(instant / 1000) * 1000);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const magnitude = Math.abs(minutes);
  return `${sign}${pad(Math.floor(magnitude / 60), 2)}${pad(magnitude % 60, 2)}`;
}

// ---- Gregorian arithmetic ----

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CUTOFF = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Howard Hinnant's days_from_civil: month 1-12, day 1-31. */
function daysFromCivil(year: number, month: number, day: number): CalendarDay {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

// ---- Validation, in the merchant's words ----

const WEEKDAY_NAMES = [
  '',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
];

/** What is wrong with a shop's calendar settings, one sentence per problem; empty when valid. */
export function calendarProblems(calendar: unknown): string[] {
  if (typeof calendar !== 'object' || calendar === null || Array.isArray(calendar))
    return ['The delivery calendar settings are missing.'];
  const settings = calendar as Record<string, unknown>;
  return [
    ...timezoneProblems(settings.timezone),
    ...businessDayProblems(settings.business_days),
    ...holidayProblems(settings.holidays),
    ...cutoffProblems(settings.cutoff_time),
    ...processingDayProblems(settings.processing_days),
  ];
}

/**
 * What is wrong with a delivery window: both null (no window), or both whole
 * numbers of days from 0 to 60 with min <= max. `what` starts every sentence,
 * e.g. "The regular rate's delivery window".
 */
export function windowProblems(min: unknown, max: unknown, what: string): string[] {
  if (min === null && max === null) return [];
  const problems: string[] = [];
  if (min === null || max === null)
    problems.push(`${what} needs both a minimum and a maximum number of days, or neither.`);
  if (min !== null && !isWindowDays(min))
    problems.push(`${what} must have a minimum of 0 to 60 whole days.`);
  if (max !== null && !isWindowDays(max))
    problems.push(`${what} must have a maximum of 0 to 60 whole days.`);
  if (isWindowDays(min) && isWindowDays(max) && min > max)
    problems.push(`${what} has a minimum of ${days(min)}, more than its maximum of ${days(max)}.`);
  return problems;
}

function isWindowDays(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_WINDOW_DAYS;
}

function days(n: number): string {
  return n === 1 ? '1 day' : `${n} days`;
}

function timezoneProblems(timezone: unknown): string[] {
  if (typeof timezone !== 'string' || timezone === '')
    return ['Choose a time zone for the delivery calendar, such as America/New_York.'];
  if (!isTimeZoneName(timezone))
    return [`${quote(timezone)} is not a time zone name, such as America/New_York.`];
  return [];
}

/** A name Intl knows; offsets such as +05:30 are not zone names, though Intl takes them. */
function isTimeZoneName(timezone: string): boolean {
  if (timezone.startsWith('+') || timezone.startsWith('-')) return false;
  try {
    formatterFor(timezone);
    return true;
  } catch {
    return false;
  }
}

function businessDayProblems(businessDays: unknown): string[] {
  if (!Array.isArray(businessDays))
    return ['Business days must be a list of weekdays, 1 (Monday) to 7 (Sunday).'];
  if (businessDays.length === 0) return ['Choose at least one business day.'];
  const problems: string[] = [];
  const seen = new Set<number>();
  const repeated = new Set<number>();
  for (const weekday of businessDays) {
    if (!Number.isInteger(weekday) || weekday < 1 || weekday > 7) {
      problems.push(
        `Business day ${quote(weekday)} is not a weekday from 1 (Monday) to 7 (Sunday).`,
      );
    } else if (seen.has(weekday)) {
      if (!repeated.has(weekday))
        problems.push(`${WEEKDAY_NAMES[weekday]} is listed more than once in the business days.`);
      repeated.add(weekday);
    } else {
      seen.add(weekday);
    }
  }
  return problems;
}

function holidayProblems(holidays: unknown): string[] {
  if (!Array.isArray(holidays)) return ['Holidays must be a list of dates written YYYY-MM-DD.'];
  const problems: string[] = [];
  if (holidays.length > MAX_HOLIDAYS)
    problems.push(`At most 100 holidays can be set; there are ${holidays.length}.`);
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const holiday of holidays) {
    if (typeof holiday !== 'string' || calendarDayOf(holiday) === undefined) {
      problems.push(`Holiday ${quote(holiday)} is not a real date written YYYY-MM-DD.`);
    } else if (seen.has(holiday)) {
      if (!repeated.has(holiday)) problems.push(`Holiday ${holiday} is listed more than once.`);
      repeated.add(holiday);
    } else {
      seen.add(holiday);
    }
  }
  return problems;
}

function cutoffProblems(cutoff: unknown): string[] {
  if (cutoff === null || (typeof cutoff === 'string' && CUTOFF.test(cutoff))) return [];
  return [
    `The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; ${quote(cutoff)} is not.`,
  ];
}

function processingDayProblems(processing: unknown): string[] {
  const valid =
    Number.isInteger(processing) &&
    (processing as number) >= 0 &&
    (processing as number) <= MAX_PROCESSING_DAYS;
  return valid ? [] : ['Processing days must be a whole number from 0 to 30.'];
}

/** A merchant's value in a message: JSON, and not so long that it buries the sentence. */
function quote(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // BigInt and cyclic values: String() still says what it is.
  }
  text ??= String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
