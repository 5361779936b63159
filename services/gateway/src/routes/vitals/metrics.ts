import { metrics, type Meter } from '@opentelemetry/api';
import type { WebVitalName, WebVitalsReport } from '@ratesmith/contracts';

/**
 * The admin's web vitals as merchants' browsers measured them, served on the
 * gateway's /metrics as histograms by `page` (a route pattern) and
 * `navigation`, never by shop:
 *
 * - ratesmith_web_vitals_lcp: Largest Contentful Paint, in seconds;
 * - ratesmith_web_vitals_cls: Cumulative Layout Shift, unitless;
 * - ratesmith_web_vitals_inp: Interaction to Next Paint, in milliseconds.
 *
 * Each has a bucket boundary at Built for Shopify's bar (2.5 s, 0.1, 200 ms),
 * so "p75 above the bar" is exactly "fewer than 75 % of page views in the
 * bar's bucket" (the alerts in charts/ratesmith/files/alerts.yaml), and finer
 * buckets around it for the dashboard's histogram_quantile.
 */
const HISTOGRAMS: Record<
  WebVitalName,
  { name: string; description: string; unit: string; scale: number; buckets: number[] }
> = {
  LCP: {
    name: 'ratesmith.web_vitals.lcp',
    description: "Largest Contentful Paint of the admin's page views, measured in the browser.",
    unit: 's',
    // The browser measures milliseconds.
    scale: 1 / 1000,
    buckets: [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10, 20],
  },
  CLS: {
    name: 'ratesmith.web_vitals.cls',
    description: "Cumulative Layout Shift of the admin's page views, measured in the browser.",
    unit: '1',
    scale: 1,
    buckets: [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1],
  },
  INP: {
    name: 'ratesmith.web_vitals.inp',
    description: "Interaction to Next Paint of the admin's page views, measured in the browser.",
    unit: 'ms',
    scale: 1,
    buckets: [25, 50, 100, 150, 200, 250, 300, 500, 1000, 2000, 5000],
  },
};

export interface WebVitalsMetrics {
  record(report: WebVitalsReport): void;
}

/** The histograms on `meter` (the global meter provider's unless given). */
export function createWebVitalsMetrics(
  meter: Meter = metrics.getMeter('ratesmith-gateway'),
): WebVitalsMetrics {
  const histograms = Object.fromEntries(
    Object.entries(HISTOGRAMS).map(([vital, h]) => [
      vital,
      {
        scale: h.scale,
        histogram: meter.createHistogram(h.name, {
          description: h.description,
          unit: h.unit,
          advice: { explicitBucketBoundaries: h.buckets },
        }),
      },
    ]),
  ) as Record<WebVitalName, { scale: number; histogram: ReturnType<Meter['createHistogram']> }>;
  return {
    record({ page, navigation, metrics: measured }) {
      const attributes = { page, navigation };
      for (const { name, value } of measured) {
        const { scale, histogram } = histograms[name];
        histogram.record(value * scale, attributes);
      }
    },
  };
}
