import {
  ADMIN_PAGES,
  NAVIGATION_TYPES,
  WEB_VITAL_MAX,
  type WebVitalName,
  type WebVitalsReport,
} from '@ratesmith/contracts';
import { z } from 'zod';
import type { SchemaAccepts } from '../../http/validate';

const NAMES = Object.keys(WEB_VITAL_MAX) as [WebVitalName, ...WebVitalName[]];

const metric = z
  .object({
    name: z.enum(NAMES, { error: `must be one of ${NAMES.join(', ')}` }),
    value: z.number({ error: 'must be a number' }).finite().nonnegative(),
  })
  .superRefine(({ name, value }, ctx) => {
    if (value > WEB_VITAL_MAX[name])
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `${name} is at most ${WEB_VITAL_MAX[name]}`,
      });
  });

/**
 * POST /api/vitals: one page view's web vitals. The page is a route pattern
 * of a closed list (never a real path, which could carry an id), each metric
 * comes once, and values are bounded so a histogram only ever counts a
 * measurement a browser could have made.
 */
export const webVitalsBody = z.object({
  page: z.enum(ADMIN_PAGES, {
    error: "must be one of the admin's route patterns (such as /edit-global-rule/:id)",
  }),
  navigation: z.enum(NAVIGATION_TYPES, {
    error: `must be one of ${NAVIGATION_TYPES.join(', ')}`,
  }),
  metrics: z
    .array(metric)
    .min(1, 'at least one metric')
    .max(NAMES.length, `at most ${NAMES.length} metrics`)
    .refine((metrics) => new Set(metrics.map((m) => m.name)).size === metrics.length, {
      error: 'each metric at most once',
    }),
});

export type WebVitalsBodyAccepts = SchemaAccepts<typeof webVitalsBody, WebVitalsReport>;
