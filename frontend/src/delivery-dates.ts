/**
 * A rate's delivery dates (`YYYY-MM-DD 00:00:00 ±HHMM`, docs/rates.md
 * "Delivery dates") in the merchant's words: Settings' example lines, the
 * rate preview and Recent checkouts.
 */
const SHORT_WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `YYYY-MM-DD…` as "Tue 8 Dec" (its weekday from the date itself, never the browser's zone). */
function dayParts(date: string): { weekday: string; day: number; month: string; year: number } {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number) as [number, number, number];
  const weekday = (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
  return { weekday: SHORT_WEEKDAYS[weekday]!, day, month: MONTHS[month - 1]!, year };
}

/** "arrives Tue 8 – Thu 10 Dec", "arrives Mon 30 Nov – Wed 2 Dec", or one day. */
export function arrivalText(min: string, max: string): string {
  const a = dayParts(min);
  const b = dayParts(max);
  if (min.slice(0, 10) === max.slice(0, 10)) return `arrives ${a.weekday} ${a.day} ${a.month}`;
  const first =
    a.month === b.month && a.year === b.year
      ? `${a.weekday} ${a.day}`
      : `${a.weekday} ${a.day} ${a.month}`;
  return `arrives ${first} – ${b.weekday} ${b.day} ${b.month}`;
}

/**
 * A wall time typed for the store (`YYYY-MM-DDTHH:MM`, a datetime-local
 * field's value) as an instant with the store zone's offset at that time
 * (`2026-12-04T15:30:00-05:00`), or undefined when it is not one. The offset
 * is read for the instant itself, so a time after a daylight-saving change
 * gets the new one.
 */
export function storeTimeInstant(wall: string, timezone: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!match) return undefined;
  const [, y, mo, d, h, mi] = match.map(Number) as number[];
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!);
  // The zone's offset at the guess, then at the instant it gives (right across a change).
  let offset = offsetMinutes(asUtc, timezone);
  offset = offsetMinutes(asUtc - offset * 60_000, timezone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${wall}:00${sign}${hh}:${mm}`;
}

/** Minutes the zone is ahead of UTC at an instant ("GMT-05:00" is -300). */
function offsetMinutes(instant: number, timezone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}
