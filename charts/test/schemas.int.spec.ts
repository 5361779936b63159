import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  chart,
  findHelm,
  helmArgs,
  natsAuthValues,
  parseObjects,
  type K8sObject,
  type Values,
} from './helm';

/**
 * Every object the chart renders is valid against the Kubernetes API's schemas
 * (kubernetes-models) and the Prometheus Operator's (@kubernetes-models/prometheus-operator),
 * with the defaults and with everything switched on. Those schemas check types,
 * enums and required fields; like the API server's defaults, they let unknown
 * fields through.
 */

let helm: string;
beforeAll(() => {
  helm = findHelm();
}, 600_000);

/** The problems validate-objects.mjs finds ([] when all are valid). */
function problemsOf(objects: unknown[]): string[] {
  const out = execFileSync(process.execPath, [join(__dirname, 'validate-objects.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

function render(values: Values): K8sObject[] {
  const text = execFileSync(helm, ['template', 'rs', chart, ...helmArgs(values)], {
    encoding: 'utf8',
  });
  return parseObjects(text);
}

const production: Values = {
  ...natsAuthValues(),
  existingSecret: 'ratesmith-prod',
  'nats.url': 'tls://nats:4222',
  'nats.tls.caSecret': 'nats-ca',
  'networkPolicy.nats.namespace': 'nats',
  'networkPolicy.nats.extraFrom[0].podSelector.matchLabels.app\\.kubernetes\\.io/component':
    'nats-box',
  'networkPolicy.mongodb.namespace': 'mongodb',
  'networkPolicy.mongodb.metricsPort': 9216,
  'networkPolicy.mongodb.extraFrom[0].ipBlock.cidr': '10.0.0.0/8',
  'serviceMonitor.enabled': true,
  'serviceMonitor.labels.release': 'kube-prometheus-stack',
  'prometheusRule.enabled': true,
  'prometheusRule.labels.release': 'kube-prometheus-stack',
  'ingress.tlsSecretName': 'ratesmith-tls',
  'services.gateway.autoscaling.enabled': true,
  'otel.endpoint': 'http://otel-collector.monitoring:4318',
};

describe.each([
  ['default values with NATS credentials', natsAuthValues()],
  ['NATS without login', { 'nats.auth.enabled': false } as Values],
  ['production: TLS, policies, ServiceMonitor, PrometheusRule, autoscaling', production],
])('%s', (_name, values) => {
  it('renders only objects valid against their API schemas', () => {
    const objects = render(values);
    expect(objects.length).toBeGreaterThan(20);
    expect(problemsOf(objects)).toEqual([]);
  });
});

it('validates every kind the production values render, the CRDs included', () => {
  const kinds = new Set(render(production).map((o) => `${o.apiVersion} ${o.kind}`));
  expect([...kinds].sort()).toEqual([
    'apps/v1 Deployment',
    'autoscaling/v2 HorizontalPodAutoscaler',
    'batch/v1 Job',
    'monitoring.coreos.com/v1 PrometheusRule',
    'monitoring.coreos.com/v1 ServiceMonitor',
    'networking.k8s.io/v1 Ingress',
    'networking.k8s.io/v1 NetworkPolicy',
    'policy/v1 PodDisruptionBudget',
    'v1 ConfigMap',
    'v1 Pod',
    'v1 Service',
  ]);
});

it('finds a wrong type, a missing required field and a kind it has no schema for', () => {
  const [deployment] = render(natsAuthValues()).filter((o) => o.kind === 'Deployment');
  const wrongType = { ...deployment, spec: { ...deployment!.spec, replicas: 'two' } };
  const noContainers = {
    ...deployment,
    spec: { ...deployment!.spec, template: { spec: {} } },
  };
  const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
  const problems = problemsOf([wrongType, noContainers, unknown]);
  expect(problems).toHaveLength(3);
  expect(problems[0]).toMatch(/replicas must be integer/);
  expect(problems[1]).toMatch(/containers/);
  expect(problems[2]).toMatch(/example\.com\/v1 Widget w: no schema/);
});
