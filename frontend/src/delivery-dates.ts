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
