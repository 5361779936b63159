/** One sample of the Prometheus text a service serves on /metrics. */
export interface MetricSample {
  /** With its suffix: `ratesmith_web_vitals_lcp_bucket`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([A-Za-z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of `text` whose metric name starts with `prefix` (comments left out; label values as written). */
export function metricSamples(text: string, prefix: string): MetricSample[] {
  return text.split('\n').flatMap((line) => {
    const match = line.startsWith(prefix) ? SAMPLE.exec(line) : null;
    if (!match) return [];
    const [, name, labels = '', value] = match;
    return [
      {
        name: name!,
        labels: Object.fromEntries([...labels.matchAll(LABEL)].map((l) => [l[1]!, l[2]!])),
        value: Number(value),
      },
    ];
  });
}
