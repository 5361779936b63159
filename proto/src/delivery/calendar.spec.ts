import {
  addBusinessDays,
  calendarDayOf,
  calendarProblems,
  DEFAULT_CALENDAR,
  deliveryDates,
  formatDeliveryDate,
  isoDate,
  type ShopCalendar,
  shipDay,
  windowProblems,
} from './calendar';

// Every expected date below was counted by hand on a 2026-2028 wall calendar;
// offsets are the zone's at 12:00 UTC of that date.
// 2026-03-04 is a Wednesday, 2026-03-07 a Saturday.

function calendar(overrides: Partial<ShopCalendar> = {}): ShopCalendar {
  return { ...DEFAULT_CALENDAR, ...overrides };
}

function at(iso: string): Date {
  return new Date(iso);
}

describe('DEFAULT_CALENDAR', () => {
  it('is UTC, Monday to Friday, no holidays, no cutoff, no processing days', () => {
    expect(DEFAULT_CALENDAR).toEqual({
      timezone: 'UTC',
      business_days: [1, 2, 3, 4, 5],
      holidays: [],
      cutoff_time: null,
      processing_days: 0,
    });
  });
});

describe('deliveryDates', () => {
  it('counts business days from the order day, skipping the weekend', () => {
    expect(deliveryDates(at('2026-03-04T10:00:00Z'), calendar(), { min: 2, max: 5 })).toEqual({
      min: '2026-03-06 00:00:00 +0000',
      max: '2026-03-11 00:00:00 +0000',
    });
  });

  it('gives the ship day itself for 0 days', () => {
    expect(deliveryDates(at('2026-03-04T10:00:00Z'), calendar(), { min: 0, max: 3 })).toEqual({
      min: '2026-03-04 00:00:00 +0000',
      max: '2026-03-09 00:00:00 +0000',
    });
  });

  describe('the cutoff, compared to the second', () => {
    const cutoffAt5 = calendar({ cutoff_time: '17:00' });

    it('keeps the order day until the last second before the cutoff', () => {
      expect(deliveryDates(at('2026-03-04T16:59:59.999Z'), cutoffAt5, { min: 0, max: 1 })).toEqual({
        min: '2026-03-04 00:00:00 +0000',
        max: '2026-03-05 00:00:00 +0000',
      });
    });

    it('moves to the next business day exactly at the cutoff', () => {
      expect(deliveryDates(at('2026-03-04T17:00:00.000Z'), cutoffAt5, { min: 0, max: 1 })).toEqual({
        min: '2026-03-05 00:00:00 +0000',
        max: '2026-03-06 00:00:00 +0000',
      });
    });

    it('treats a 00:00 cutoff as "always after the cutoff"', () => {
      const midnight = calendar({ cutoff_time: '00:00' });
      expect(deliveryDates(at('2026-03-04T00:00:00Z'), midnight, { min: 0, max: 0 })).toEqual({
        min: '2026-03-05 00:00:00 +0000',
        max: '2026-03-05 00:00:00 +0000',
      });
    });

    it('keeps the order day to the end of it when there is no cutoff', () => {
      expect(deliveryDates(at('2026-03-04T23:59:59.999Z'), calendar(), { min: 0, max: 0 })).toEqual(
        { min: '2026-03-04 00:00:00 +0000', max: '2026-03-04 00:00:00 +0000' },
      );
    });
  });

  it('takes a Saturday order on Monday', () => {
    expect(deliveryDates(at('2026-03-07T10:00:00Z'), calendar(), { min: 1, max: 3 })).toEqual({
      min: '2026-03-10 00:00:00 +0000',
      max: '2026-03-12 00:00:00 +0000',
    });
  });

  it('takes a Friday order after the cutoff on Tuesday when Monday is a holiday', () => {
    const memorialDay = calendar({ cutoff_time: '17:00', holidays: ['2026-05-25'] });
    expect(deliveryDates(at('2026-05-22T18:00:00Z'), memorialDay, { min: 0, max: 2 })).toEqual({
      min: '2026-05-26 00:00:00 +0000',
      max: '2026-05-28 00:00:00 +0000',
    });
  });

  describe('processing days across holidays', () => {
    // Wed 12-23 before the cutoff; Fri 12-25 and Fri 2027-01-01 are holidays.
    const christmas = calendar({
      cutoff_time: '12:00',
      holidays: ['2026-12-25', '2027-01-01'],
      processing_days: 2,
    });
    const wednesdayMorning = at('2026-12-23T09:00:00Z');

    it('ships two business days after the order day, after the holiday weekend', () => {
      expect(deliveryDates(wednesdayMorning, christmas, { min: 0, max: 0 })).toEqual({
        min: '2026-12-28 00:00:00 +0000',
        max: '2026-12-28 00:00:00 +0000',
      });
    });

    it('counts transit past the next holiday too', () => {
      expect(deliveryDates(wednesdayMorning, christmas, { min: 1, max: 4 })).toEqual({
        min: '2026-12-29 00:00:00 +0000',
        max: '2027-01-04 00:00:00 +0000',
      });
    });
  });

  describe('time zones with half-hour and 45-minute offsets', () => {
    it('reads the cutoff in Asia/Kolkata time (+0530)', () => {
      const kolkata = calendar({ timezone: 'Asia/Kolkata', cutoff_time: '14:00' });
      // 08:29:59Z is 13:59:59 in Kolkata; 08:30:00Z is 14:00:00.
      expect(deliveryDates(at('2026-03-04T08:29:59Z'), kolkata, { min: 0, max: 0 })).toEqual({
        min: '2026-03-04 00:00:00 +0530',
        max: '2026-03-04 00:00:00 +0530',
      });
      expect(deliveryDates(at('2026-03-04T08:30:00Z'), kolkata, { min: 0, max: 0 })).toEqual({
        min: '2026-03-05 00:00:00 +0530',
        max: '2026-03-05 00:00:00 +0530',
      });
    });

    it('writes +1345 in Pacific/Chatham summer', () => {
      // 2026-01-15T12:00Z is Friday 2026-01-16 01:45 in Chatham.
      const chatham = calendar({ timezone: 'Pacific/Chatham' });
      expect(deliveryDates(at('2026-01-15T12:00:00Z'), chatham, { min: 0, max: 1 })).toEqual({
        min: '2026-01-16 00:00:00 +1345',
        max: '2026-01-19 00:00:00 +1345',
      });
    });

    it('writes +1245 in Pacific/Chatham winter', () => {
      // 2026-07-15T12:00Z is Thursday 2026-07-16 00:45 in Chatham.
      const chatham = calendar({ timezone: 'Pacific/Chatham' });
      expect(deliveryDates(at('2026-07-15T12:00:00Z'), chatham, { min: 0, max: 0 })).toEqual({
        min: '2026-07-16 00:00:00 +1245',
        max: '2026-07-16 00:00:00 +1245',
      });
    });

    it('changes the Chatham offset between two dates around its DST end (every day a business day)', () => {
      // Summer time ends 2026-04-04 at 14:00 UTC: noon UTC of 04-04 is still +1345,
      // noon UTC of 04-05 is +1245. 2026-04-03T12:00Z is Saturday 04-04 01:45 there.
      const everyDay = calendar({
        timezone: 'Pacific/Chatham',
        business_days: [1, 2, 3, 4, 5, 6, 7],
      });
      expect(deliveryDates(at('2026-04-03T12:00:00Z'), everyDay, { min: 0, max: 1 })).toEqual({
        min: '2026-04-04 00:00:00 +1345',
        max: '2026-04-05 00:00:00 +1245',
      });
    });
  });

  describe('DST change days in America/New_York (weekend business days)', () => {
    const weekends = calendar({ timezone: 'America/New_York', business_days: [6, 7] });

    it('spring: the last second of Saturday 03-07 is Saturday, and 03-08 is written -0400', () => {
      // 04:59:59Z is 23:59:59 EST on Saturday.
      expect(deliveryDates(at('2026-03-08T04:59:59Z'), weekends, { min: 0, max: 1 })).toEqual({
        min: '2026-03-07 00:00:00 -0500',
        max: '2026-03-08 00:00:00 -0400',
      });
    });

    it('spring: local midnight of Sunday 03-08 is Sunday, though its midnight was still EST', () => {
      expect(deliveryDates(at('2026-03-08T05:00:00Z'), weekends, { min: 0, max: 1 })).toEqual({
        min: '2026-03-08 00:00:00 -0400',
        max: '2026-03-14 00:00:00 -0400',
      });
    });

    it('autumn: the last second of Saturday 10-31 is Saturday, and 11-01 is written -0500', () => {
      // 03:59:59Z is 23:59:59 EDT on Saturday.
      expect(deliveryDates(at('2026-11-01T03:59:59Z'), weekends, { min: 0, max: 1 })).toEqual({
        min: '2026-10-31 00:00:00 -0400',
        max: '2026-11-01 00:00:00 -0500',
      });
    });

    it('autumn: local midnight of Sunday 11-01 is Sunday, though its midnight was still EDT', () => {
      expect(deliveryDates(at('2026-11-01T04:00:00Z'), weekends, { min: 0, max: 1 })).toEqual({
        min: '2026-11-01 00:00:00 -0500',
        max: '2026-11-07 00:00:00 -0500',
      });
    });

    it('writes a winter date -0500, as the spec example', () => {
      const newYork = calendar({ timezone: 'America/New_York' });
      expect(deliveryDates(at('2026-12-01T15:00:00Z'), newYork, { min: 0, max: 0 })).toEqual({
        min: '2026-12-01 00:00:00 -0500',
        max: '2026-12-01 00:00:00 -0500',
      });
    });
  });

  describe('a request whose UTC date is not the local date', () => {
    it('is already tomorrow in Kolkata', () => {
      // 20:00Z on Wednesday is 01:30 on Thursday in Kolkata.
      const kolkata = calendar({ timezone: 'Asia/Kolkata' });
      expect(deliveryDates(at('2026-03-04T20:00:00Z'), kolkata, { min: 0, max: 0 })).toEqual({
        min: '2026-03-05 00:00:00 +0530',
        max: '2026-03-05 00:00:00 +0530',
      });
    });

    it('is still yesterday in Los Angeles, cutoff read on the local clock', () => {
      // 03:00Z on Wednesday is 19:00 on Tuesday in Los Angeles.
      const before8pm = calendar({ timezone: 'America/Los_Angeles', cutoff_time: '20:00' });
      expect(deliveryDates(at('2026-03-04T03:00:00Z'), before8pm, { min: 0, max: 0 })).toEqual({
        min: '2026-03-03 00:00:00 -0800',
        max: '2026-03-03 00:00:00 -0800',
      });
      const before7pm = calendar({ timezone: 'America/Los_Angeles', cutoff_time: '19:00' });
      expect(deliveryDates(at('2026-03-04T03:00:00Z'), before7pm, { min: 0, max: 0 })).toEqual({
        min: '2026-03-04 00:00:00 -0800',
        max: '2026-03-04 00:00:00 -0800',
      });
    });
  });

  it('ships a weekday order on Saturday when only weekends are business days', () => {
    const weekends = calendar({ business_days: [6, 7] });
    expect(deliveryDates(at('2026-03-04T10:00:00Z'), weekends, { min: 0, max: 2 })).toEqual({
      min: '2026-03-07 00:00:00 +0000',
      max: '2026-03-14 00:00:00 +0000',
    });
  });

  it('finds the first Monday after 100 Monday holidays', () => {
    // The 100 Mondays from 2026-03-09; the 101st, 700 days on, is 2028-02-07.
    const mondays = Array.from({ length: 100 }, (_, week) =>
      new Date(Date.UTC(2026, 2, 9 + 7 * week)).toISOString().slice(0, 10),
    );
    const mondaysOnly = calendar({ business_days: [1], holidays: mondays });
    expect(deliveryDates(at('2026-03-08T12:00:00Z'), mondaysOnly, { min: 0, max: 0 })).toEqual({
      min: '2028-02-07 00:00:00 +0000',
      max: '2028-02-07 00:00:00 +0000',
    });
  });

  it('ignores a holiday that is not a real date', () => {
    const odd = calendar({ holidays: ['2026-02-30', '2026-03-04T00:00', '2026-3-4'] });
    expect(deliveryDates(at('2026-03-04T10:00:00Z'), odd, { min: 0, max: 0 })).toEqual({
      min: '2026-03-04 00:00:00 +0000',
      max: '2026-03-04 00:00:00 +0000',
    });
  });

  describe('refuses what it cannot count with', () => {
    const now = at('2026-03-04T10:00:00Z');

    it('a calendar without a business day', () => {
      expect(() => deliveryDates(now, calendar({ business_days: [] }), { min: 0, max: 0 })).toThrow(
        new Error(
          'No business day within 7 days after 2026-03-04: the calendar needs a business day that is not a holiday',
        ),
      );
      expect(() =>
        deliveryDates(now, calendar({ business_days: [8] }), { min: 0, max: 0 }),
      ).toThrow(
        new Error(
          'No business day within 7 days after 2026-03-04: the calendar needs a business day that is not a holiday',
        ),
      );
    });

    it('a window beyond 60 days', () => {
      expect(() => deliveryDates(now, calendar(), { min: 0, max: 61 })).toThrow(
        new Error('Business days to add must be a whole number from 0 to 60, not 61'),
      );
    });

    it('processing days beyond 30', () => {
      expect(() =>
        deliveryDates(now, calendar({ processing_days: 31 }), { min: 0, max: 0 }),
      ).toThrow(new Error('processing_days must be a whole number from 0 to 30, not 31'));
    });

    it('a cutoff that is not HH:MM', () => {
      expect(() =>
        deliveryDates(now, calendar({ cutoff_time: '5pm' }), { min: 0, max: 0 }),
      ).toThrow(new Error('cutoff_time must be HH:MM from 00:00 to 23:59, not 5pm'));
    });

    it('an unknown time zone', () => {
      expect(() =>
        deliveryDates(now, calendar({ timezone: 'Mars/Olympus' }), { min: 0, max: 0 }),
      ).toThrow(new Error('Unknown time zone: Mars/Olympus'));
    });

    it('an invalid request time', () => {
      expect(() => deliveryDates(at('not a date'), calendar(), { min: 0, max: 0 })).toThrow(
        new Error('The request time is not a valid date'),
      );
    });
  });
});

describe('shipDay, addBusinessDays and formatDeliveryDate', () => {
  it('price several rates from one ship day', () => {
    const christmas = calendar({
      timezone: 'America/New_York',
      holidays: ['2026-12-25', '2027-01-01'],
      processing_days: 2,
    });
    // 14:00Z is 09:00 EST on Wednesday 12-23.
    const ship = shipDay(at('2026-12-23T14:00:00Z'), christmas);
    expect(ship).toBe(20815);
    expect(isoDate(ship)).toBe('2026-12-28');
    expect(formatDeliveryDate(ship, 'America/New_York')).toBe('2026-12-28 00:00:00 -0500');
    expect(formatDeliveryDate(addBusinessDays(ship, 4, christmas), 'America/New_York')).toBe(
      '2027-01-04 00:00:00 -0500',
    );
    expect(formatDeliveryDate(addBusinessDays(ship, 0, christmas), 'America/New_York')).toBe(
      '2026-12-28 00:00:00 -0500',
    );
  });

  it('number days from 1970-01-01', () => {
    expect(calendarDayOf('1970-01-01')).toBe(0);
    expect(calendarDayOf('1969-12-31')).toBe(-1);
    expect(calendarDayOf('2000-02-29')).toBe(11016);
    expect(calendarDayOf('2024-02-29')).toBe(19782);
    expect(calendarDayOf('2026-03-04')).toBe(20516);
    expect(calendarDayOf('2100-03-01')).toBe(47541);
    expect(isoDate(0)).toBe('1970-01-01');
    expect(isoDate(-1)).toBe('1969-12-31');
    expect(isoDate(11016)).toBe('2000-02-29');
    expect(isoDate(19782)).toBe('2024-02-29');
    expect(isoDate(20516)).toBe('2026-03-04');
    expect(isoDate(47541)).toBe('2100-03-01');
  });

  it('refuse dates that do not exist', () => {
    expect(calendarDayOf('2026-02-29')).toBeUndefined();
    expect(calendarDayOf('2100-02-29')).toBeUndefined();
    expect(calendarDayOf('2026-02-30')).toBeUndefined();
    expect(calendarDayOf('2026-04-31')).toBeUndefined();
    expect(calendarDayOf('2026-13-01')).toBeUndefined();
    expect(calendarDayOf('2026-00-10')).toBeUndefined();
    expect(calendarDayOf('2026-3-4')).toBeUndefined();
  });

  it('write UTC as +0000', () => {
    expect(formatDeliveryDate(20516, 'UTC')).toBe('2026-03-04 00:00:00 +0000');
  });
});

describe('calendarProblems', () => {
  const valid: ShopCalendar = {
    timezone: 'America/New_York',
    business_days: [1, 2, 3, 4, 5, 6, 7],
    holidays: ['2026-12-25', '2024-02-29', '2000-02-29'],
    cutoff_time: '23:59',
    processing_days: 30,
  };

  it('finds nothing wrong with a valid calendar', () => {
    expect(calendarProblems(DEFAULT_CALENDAR)).toEqual([]);
    expect(calendarProblems(valid)).toEqual([]);
    expect(calendarProblems({ ...valid, timezone: 'Asia/Kolkata', cutoff_time: '00:00' })).toEqual(
      [],
    );
    expect(calendarProblems({ ...valid, timezone: 'Pacific/Chatham', cutoff_time: null })).toEqual(
      [],
    );
    expect(calendarProblems({ ...valid, business_days: [7], processing_days: 0 })).toEqual([]);
  });

  it('takes exactly 100 distinct holidays', () => {
    // 2026-01-01 to 2026-04-10.
    const hundredDays = Array.from({ length: 100 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    );
    expect(calendarProblems({ ...valid, holidays: hundredDays })).toEqual([]);
  });

  it('needs an object', () => {
    for (const notACalendar of [null, undefined, 'UTC', 5, []])
      expect(calendarProblems(notACalendar)).toEqual([
        'The delivery calendar settings are missing.',
      ]);
  });

  it('needs a time zone', () => {
    for (const timezone of [undefined, null, '', 5])
      expect(calendarProblems({ ...valid, timezone })).toEqual([
        'Choose a time zone for the delivery calendar, such as America/New_York.',
      ]);
  });

  it('refuses a time zone Intl does not know, and UTC offsets', () => {
    expect(calendarProblems({ ...valid, timezone: 'Mars/Olympus' })).toEqual([
      '"Mars/Olympus" is not a time zone name, such as America/New_York.',
    ]);
    expect(calendarProblems({ ...valid, timezone: '+05:30' })).toEqual([
      '"+05:30" is not a time zone name, such as America/New_York.',
    ]);
    expect(calendarProblems({ ...valid, timezone: ' UTC' })).toEqual([
      '" UTC" is not a time zone name, such as America/New_York.',
    ]);
  });

  it('shortens a long value in a message', () => {
    expect(calendarProblems({ ...valid, timezone: 'x'.repeat(100) })).toEqual([
      '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… is not a time zone name, such as America/New_York.',
    ]);
  });

  it('needs business days as a list', () => {
    for (const business_days of [undefined, null, 1, '1,2,3'])
      expect(calendarProblems({ ...valid, business_days })).toEqual([
        'Business days must be a list of weekdays, 1 (Monday) to 7 (Sunday).',
      ]);
  });

  it('needs at least one business day', () => {
    expect(calendarProblems({ ...valid, business_days: [] })).toEqual([
      'Choose at least one business day.',
    ]);
  });

  it('refuses a business day that is not a weekday number', () => {
    expect(calendarProblems({ ...valid, business_days: [1, 0, 8, 1.5, '2', null] })).toEqual([
      'Business day 0 is not a weekday from 1 (Monday) to 7 (Sunday).',
      'Business day 8 is not a weekday from 1 (Monday) to 7 (Sunday).',
      'Business day 1.5 is not a weekday from 1 (Monday) to 7 (Sunday).',
      'Business day "2" is not a weekday from 1 (Monday) to 7 (Sunday).',
      'Business day null is not a weekday from 1 (Monday) to 7 (Sunday).',
    ]);
  });

  it('refuses a business day listed twice, once per weekday', () => {
    expect(calendarProblems({ ...valid, business_days: [1, 1, 1, 5, 7, 7] })).toEqual([
      'Monday is listed more than once in the business days.',
      'Sunday is listed more than once in the business days.',
    ]);
  });

  it('needs holidays as a list', () => {
    for (const holidays of [undefined, null, '2026-12-25'])
      expect(calendarProblems({ ...valid, holidays })).toEqual([
        'Holidays must be a list of dates written YYYY-MM-DD.',
      ]);
  });

  it('takes at most 100 holidays', () => {
    const realDates = Array.from({ length: 101 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    );
    expect(calendarProblems({ ...valid, holidays: realDates })).toEqual([
      'At most 100 holidays can be set; there are 101.',
    ]);
  });

  it('refuses a holiday that is not a real date written YYYY-MM-DD', () => {
    expect(
      calendarProblems({
        ...valid,
        holidays: [
          '2026-02-30',
          '2100-02-29',
          '2026-13-01',
          '2026-3-4',
          '2026-12-25T00:00',
          20261225,
        ],
      }),
    ).toEqual([
      'Holiday "2026-02-30" is not a real date written YYYY-MM-DD.',
      'Holiday "2100-02-29" is not a real date written YYYY-MM-DD.',
      'Holiday "2026-13-01" is not a real date written YYYY-MM-DD.',
      'Holiday "2026-3-4" is not a real date written YYYY-MM-DD.',
      'Holiday "2026-12-25T00:00" is not a real date written YYYY-MM-DD.',
      'Holiday 20261225 is not a real date written YYYY-MM-DD.',
    ]);
  });

  it('refuses a holiday listed twice, once per date', () => {
    expect(
      calendarProblems({ ...valid, holidays: ['2026-12-25', '2026-12-25', '2026-12-25'] }),
    ).toEqual(['Holiday 2026-12-25 is listed more than once.']);
  });

  it('refuses a cutoff that is not HH:MM from 00:00 to 23:59', () => {
    expect(calendarProblems({ ...valid, cutoff_time: '24:00' })).toEqual([
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "24:00" is not.',
    ]);
    expect(calendarProblems({ ...valid, cutoff_time: '12:60' })).toEqual([
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "12:60" is not.',
    ]);
    expect(calendarProblems({ ...valid, cutoff_time: '9:00' })).toEqual([
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "9:00" is not.',
    ]);
    expect(calendarProblems({ ...valid, cutoff_time: '17:00:00' })).toEqual([
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "17:00:00" is not.',
    ]);
    expect(calendarProblems({ ...valid, cutoff_time: 1700 })).toEqual([
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; 1700 is not.',
    ]);
    expect(calendarProblems({ ...valid, cutoff_time: undefined })).toEqual([
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; undefined is not.',
    ]);
  });

  it('refuses processing days that are not a whole number from 0 to 30', () => {
    for (const processing_days of [-1, 31, 1.5, '2', null, undefined])
      expect(calendarProblems({ ...valid, processing_days })).toEqual([
        'Processing days must be a whole number from 0 to 30.',
      ]);
  });

  it('lists every problem, field by field', () => {
    expect(
      calendarProblems({
        timezone: 'Nowhere',
        business_days: [],
        holidays: ['2026-02-30'],
        cutoff_time: '25:00',
        processing_days: 31,
      }),
    ).toEqual([
      '"Nowhere" is not a time zone name, such as America/New_York.',
      'Choose at least one business day.',
      'Holiday "2026-02-30" is not a real date written YYYY-MM-DD.',
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "25:00" is not.',
      'Processing days must be a whole number from 0 to 30.',
    ]);
  });
});

describe('windowProblems', () => {
  const what = "The regular rate's delivery window";

  it('takes no window, or both ends from 0 to 60 with min <= max', () => {
    expect(windowProblems(null, null, what)).toEqual([]);
    expect(windowProblems(0, 0, what)).toEqual([]);
    expect(windowProblems(3, 5, what)).toEqual([]);
    expect(windowProblems(0, 60, what)).toEqual([]);
    expect(windowProblems(60, 60, what)).toEqual([]);
  });

  it('needs both ends or neither', () => {
    expect(windowProblems(null, 3, what)).toEqual([
      "The regular rate's delivery window needs both a minimum and a maximum number of days, or neither.",
    ]);
    expect(windowProblems(3, null, what)).toEqual([
      "The regular rate's delivery window needs both a minimum and a maximum number of days, or neither.",
    ]);
  });

  it('refuses a minimum that is not 0 to 60 whole days', () => {
    for (const min of [-1, 61, 1.5, '1', undefined])
      expect(windowProblems(min, 5, what)).toEqual([
        "The regular rate's delivery window must have a minimum of 0 to 60 whole days.",
      ]);
  });

  it('refuses a maximum that is not 0 to 60 whole days', () => {
    for (const max of [-1, 61, 2.5, '5', undefined])
      expect(windowProblems(2, max, what)).toEqual([
        "The regular rate's delivery window must have a maximum of 0 to 60 whole days.",
      ]);
  });

  it('refuses a minimum above the maximum', () => {
    expect(windowProblems(5, 3, what)).toEqual([
      "The regular rate's delivery window has a minimum of 5 days, more than its maximum of 3 days.",
    ]);
    expect(windowProblems(1, 0, 'The bump rate’s delivery window')).toEqual([
      'The bump rate’s delivery window has a minimum of 1 day, more than its maximum of 0 days.',
    ]);
  });

  it('says every problem of one window', () => {
    expect(windowProblems(null, 61, what)).toEqual([
      "The regular rate's delivery window needs both a minimum and a maximum number of days, or neither.",
      "The regular rate's delivery window must have a maximum of 0 to 60 whole days.",
    ]);
    expect(windowProblems(undefined, undefined, what)).toEqual([
      "The regular rate's delivery window must have a minimum of 0 to 60 whole days.",
      "The regular rate's delivery window must have a maximum of 0 to 60 whole days.",
    ]);
  });
});
