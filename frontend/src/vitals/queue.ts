import {
  WEB_VITAL_MAX,
  type AdminPage,
  type NavigationType,
  type WebVitalName,
  type WebVitalsReport,
} from '@ratesmith/contracts/edge';

/** What the queue takes of a web-vitals library metric. */
export interface MeasuredVital {
  name: WebVitalName;
  value: number;
  /** The library's id of this metric of this page view. */
  id: string;
  navigationType: NavigationType;
  /** The URL of the page view the metric is for (the library's `navigationURL`). */
  navigationURL?: string;
}

/**
 * The metrics measured since the page was last hidden, one report per page
 * view (its page and navigation type), each metric at most once. A metric is
 * sent once, with its value when the page is first hidden after it was
 * measured: the library reports CLS and INP again if the page comes back and
 * they grow, and a histogram must never count one page view twice.
 */
export class VitalsQueue {
  private readonly pending = new Map<string, { report: WebVitalsReport; ids: string[] }>();
  private readonly sent = new Set<string>();

  constructor(private readonly pageOf: (pathname: string) => AdminPage | undefined) {}

  add(metric: MeasuredVital): void {
    const { name, value, id } = metric;
    // Outside the bounds the gateway takes: no real measurement, and it would refuse the batch.
    if (this.sent.has(id) || !(value >= 0 && value <= WEB_VITAL_MAX[name])) return;
    const page = this.pageOf(
      new URL(metric.navigationURL ?? location.href, location.href).pathname,
    );
    if (!page) return;
    const key = `${page} ${metric.navigationType}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { report: { page, navigation: metric.navigationType, metrics: [] }, ids: [] };
      this.pending.set(key, entry);
    }
    const at = entry.report.metrics.findIndex((m) => m.name === name);
    if (at >= 0) entry.report.metrics.splice(at, 1);
    entry.report.metrics.push({ name, value });
    entry.ids.push(id);
  }

  /** The reports to send now; their metrics are not sent again. */
  take(): WebVitalsReport[] {
    const reports = [...this.pending.values()].map(({ report, ids }) => {
      for (const id of ids) this.sent.add(id);
      return report;
    });
    this.pending.clear();
    return reports;
  }
}
