import { arrivalText, storeTimeInstant } from './delivery-dates';

describe('storeTimeInstant', () => {
  it.each([
    ['2026-12-04T15:30', 'America/New_York', '2026-12-04T15:30:00-05:00'],
    // Summer time in New York, and the first hour after the change.
    ['2026-07-04T09:00', 'America/New_York', '2026-07-04T09:00:00-04:00'],
    ['2026-03-08T03:30', 'America/New_York', '2026-03-08T03:30:00-04:00'],
    ['2026-12-04T10:00', 'Asia/Kolkata', '2026-12-04T10:00:00+05:30'],
    ['2026-12-04T10:00', 'Pacific/Chatham', '2026-12-04T10:00:00+13:45'],
    ['2026-12-04T10:00', 'UTC', '2026-12-04T10:00:00+00:00'],
  ])('%s in %s is %s', (wall, zone, instant) => {
    expect(storeTimeInstant(wall, zone)).toBe(instant);
  });

  it.each(['', '2026-12-04', '2026-12-04T25', '04/12/2026 10:00'])(
    '%j is no store time',
    (wall) => {
      expect(storeTimeInstant(wall, 'UTC')).toBeUndefined();
    },
  );
});

describe('arrivalText', () => {
  it('says one day, a range in a month, and a range across months', () => {
    expect(arrivalText('2026-12-08 00:00:00 -0500', '2026-12-08 00:00:00 -0500')).toBe(
      'arrives Tue 8 Dec',
    );
    expect(arrivalText('2026-12-08 00:00:00 -0500', '2026-12-10 00:00:00 -0500')).toBe(
      'arrives Tue 8 – Thu 10 Dec',
    );
    expect(arrivalText('2026-11-30 00:00:00 +0000', '2026-12-02 00:00:00 +0000')).toBe(
      'arrives Mon 30 Nov – Wed 2 Dec',
    );
  });
});
