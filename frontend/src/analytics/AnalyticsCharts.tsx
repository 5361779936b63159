/**
 * The Dashboard's charts, drawn by polaris-viz: its own chunk (loaded lazily
 * by AnalyticsCard), with the library's provider and styles, so the
 * Dashboard's first load does not carry them.
 */
import '@shopify/polaris-viz/build/esm/styles.css';
import { BarChart, PolarisVizProvider, type DataSeries } from '@shopify/polaris-viz';
import type { AnalyticsDayJson, AnalyticsFeeBucketJson } from '../api';
import { dayLabel, feeBucketLabel, OUTCOMES } from './words';

/** The admin's light surface; polaris-viz starts dark. */
const THEME = 'Light';

function Chart({ data, stacked }: { data: DataSeries[]; stacked: boolean }) {
  return (
    <PolarisVizProvider defaultTheme={THEME}>
      {/* Screen readers get the card's data table instead of the drawing. */}
      <div className="rs-chart" aria-hidden="true">
        <BarChart
          data={data}
          theme={THEME}
          type={stacked ? 'stacked' : 'default'}
          // The card draws the legend as text: polaris-viz's is made of buttons, inside
          // a drawing hidden from screen readers.
          showLegend={false}
          isAnimated={false}
          yAxisOptions={{ integersOnly: true }}
        />
      </div>
    </PolarisVizProvider>
  );
}

/** Checkouts per day, one stacked bar each, by the rate they got. */
export function DailyChart({ daily }: { daily: AnalyticsDayJson[] }) {
  const data = OUTCOMES.map(({ label, of, color }) => ({
    name: label,
    color,
    data: daily.map((day) => ({ key: dayLabel(day.day), value: of(day) })),
  }));
  return <Chart data={data} stacked />;
}

/** Checkouts per regular-rate fee bucket. */
export function FeeChart({
  fees,
  currency,
}: {
  fees: AnalyticsFeeBucketJson[];
  currency: string | null;
}) {
  const data = [
    {
      name: 'Checkouts',
      color: OUTCOMES[0]!.color,
      data: fees.map((bucket) => ({ key: feeBucketLabel(bucket, currency), value: bucket.count })),
    },
  ];
  return <Chart data={data} stacked={false} />;
}
