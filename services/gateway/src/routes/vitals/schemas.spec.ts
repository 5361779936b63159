import { ADMIN_PAGES } from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import { parseInput } from '../../http/validate';
import { webVitalsBody } from './schemas';

const parse = (body: unknown) => parseInput(webVitalsBody, body);
const REPORT = {
  page: '/edit-global-rule/:id',
  navigation: 'navigate',
  metrics: [
    { name: 'LCP', value: 1234.5 },
    { name: 'CLS', value: 0.02 },
    { name: 'INP', value: 96 },
  ],
};
const problems = (body: unknown) => {
  try {
    parse(body);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).details;
  }
  throw new Error('accepted');
};

describe('POST /api/vitals body', () => {
  it('takes a page view of each admin page, dropping unknown keys', () => {
    expect(parse({ ...REPORT, shop: 'a.myshopify.com', url: '/x' })).toEqual(REPORT);
    for (const page of ADMIN_PAGES)
      expect(parse({ page, navigation: 'reload', metrics: [{ name: 'CLS', value: 0 }] }).page).toBe(
        page,
      );
  });

  it('takes each bound itself', () => {
    const at = (name: string, value: number) => ({ ...REPORT, metrics: [{ name, value }] });
    expect(parse(at('LCP', 300_000)).metrics[0]!.value).toBe(300_000);
    expect(parse(at('CLS', 10)).metrics[0]!.value).toBe(10);
    expect(parse(at('INP', 60_000)).metrics[0]!.value).toBe(60_000);
  });

  it('names an unknown page plainly', () => {
    expect(problems({ ...REPORT, page: '/edit-global-rule/64f1c0ffee' })).toEqual([
      "page: must be one of the admin's route patterns (such as /edit-global-rule/:id)",
    ]);
  });

  it.each([
    ['no body', {}],
    ['no metrics', { ...REPORT, metrics: [] }],
    ['four metrics', { ...REPORT, metrics: [...REPORT.metrics, { name: 'LCP', value: 1 }] }],
    ['a metric twice', { ...REPORT, metrics: [REPORT.metrics[0], REPORT.metrics[0]] }],
    ['another metric', { ...REPORT, metrics: [{ name: 'TTFB', value: 10 }] }],
    ['a value as text', { ...REPORT, metrics: [{ name: 'LCP', value: '1200' }] }],
    ['a negative value', { ...REPORT, metrics: [{ name: 'INP', value: -1 }] }],
    ['LCP past 5 minutes', { ...REPORT, metrics: [{ name: 'LCP', value: 300_001 }] }],
    ['CLS past 10', { ...REPORT, metrics: [{ name: 'CLS', value: 10.5 }] }],
    ['INP past a minute', { ...REPORT, metrics: [{ name: 'INP', value: 60_001 }] }],
    ['an unknown navigation', { ...REPORT, navigation: 'typed' }],
    ['a real path', { ...REPORT, page: '/global-rules?shop=a.myshopify.com' }],
    ['metrics not a list', { ...REPORT, metrics: REPORT.metrics[0] }],
  ])('refuses %s', (_name, body) => {
    expect(problems(body).length).toBeGreaterThan(0);
  });

  it('says which bound a value passed', () => {
    expect(problems({ ...REPORT, metrics: [{ name: 'INP', value: 60_001 }] })).toEqual([
      'metrics.0.value: INP is at most 60000',
    ]);
  });
});
