import { metricSamples } from './metric-samples';

const TEXT = `# HELP ratesmith_web_vitals_lcp Largest Contentful Paint.
# TYPE ratesmith_web_vitals_lcp histogram
ratesmith_web_vitals_lcp_count{page="/edit-global-rule/:id",navigation="navigate"} 2
ratesmith_web_vitals_lcp_bucket{page="/",navigation="reload",le="2.5"} 1
ratesmith_snapshots_unpublished 0
target_info{service_name="gateway",note="a \\"quoted\\" word"} 1 1700000000000
`;

describe('metricSamples', () => {
  it('reads the samples of the names asked for, their labels and values, and no comment', () => {
    expect(metricSamples(TEXT, 'ratesmith_web_vitals_')).toEqual([
      {
        name: 'ratesmith_web_vitals_lcp_count',
        labels: { page: '/edit-global-rule/:id', navigation: 'navigate' },
        value: 2,
      },
      {
        name: 'ratesmith_web_vitals_lcp_bucket',
        labels: { page: '/', navigation: 'reload', le: '2.5' },
        value: 1,
      },
    ]);
  });

  it('reads samples without labels, and with a timestamp or escaped quotes', () => {
    expect(metricSamples(TEXT, 'ratesmith_snapshots')).toEqual([
      { name: 'ratesmith_snapshots_unpublished', labels: {}, value: 0 },
    ]);
    expect(metricSamples(TEXT, 'target_info')).toEqual([
      {
        name: 'target_info',
        labels: { service_name: 'gateway', note: 'a \\"quoted\\" word' },
        value: 1,
      },
    ]);
  });
});
