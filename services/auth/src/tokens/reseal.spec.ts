import { describeReport, type ResealReport } from './reseal';

const report = (over: Partial<ResealReport>): ResealReport => ({
  dryRun: false,
  currentKid: 'new',
  before: { old: 3 },
  after: { new: 3 },
  resealed: 3,
  changedMeanwhile: 0,
  unreadable: {},
  unreadableReasons: { kidNotConfigured: 0, authenticationFailed: 0 },
  remaining: 0,
  ...over,
});

describe('describeReport', () => {
  it('says the old keys can go only when nothing remains', () => {
    expect(describeReport(report({}))).toBe(
      '3 token record(s) re-sealed with key new; all 3 on key new: older keys can be removed',
    );
  });

  it('says what a dry run would do and that old keys must stay', () => {
    const line = describeReport(report({ dryRun: true, after: { old: 3 }, remaining: 3 }));
    expect(line).toContain('3 token record(s) would be re-sealed with key new');
    expect(line).toContain('3 of 3 not on key new: keep the older keys and run again');
  });

  it('counts records that do not open, by reason', () => {
    const line = describeReport(
      report({
        resealed: 1,
        after: { new: 1, gone: 1, old: 1 },
        unreadable: { gone: 1, old: 1 },
        unreadableReasons: { kidNotConfigured: 1, authenticationFailed: 1 },
        remaining: 2,
      }),
    );
    expect(line).toContain(
      '2 could not be opened (1 with a key id not configured, 1 failed authentication; left untouched)',
    );
    expect(line).toContain('2 of 3 not on key new');
  });
});
