import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUS_SERVICES } from '@ratesmith/kit';
import { nodeOptionsOf } from '@ratesmith/devstack';
import { parse } from 'yaml';
import {
  chart,
  findHelm,
  helmArgs,
  natsAuthValues,
  newServiceKeys,
  parseObjects,
  root,
  type K8sObject,
  type Labels,
  type Values,
} from './helm';

/**
 * Renders the Helm chart the way a cluster receives it and checks what SREs rely
 * on: probes, the restricted security context, selectors, routing, budgets,
 * autoscaling, secrets, hooks, network policies, monitoring, the schema, the
 * documentation of every value and the plain manifests in k8s/.
 */
let helm: string;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  image: string;
  command: string[];
  env: EnvVar[];
  ports?: { name: string; containerPort: number }[];
  [key: string]: any;
}

/** Production's NATS credentials: every render below has them unless it says otherwise. */
const natsKeys = newServiceKeys();
const natsAuth = natsAuthValues(natsKeys);

function renderText(values: Values = {}): string {
  return execFileSync(helm, ['template', 'rs', chart, ...helmArgs({ ...natsAuth, ...values })], {
    encoding: 'utf8',
  });
}

function render(values: Values = {}): K8sObject[] {
  return parseObjects(renderText(values));
}

/** helm template's exit status and error output. */
function renderFailure(values: Values): { status: number | null; stderr: string } {
  const result = spawnSync(helm, ['template', 'rs', chart, ...helmArgs(values)], {
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

const ofKind = (docs: K8sObject[], kind: string) => docs.filter((d) => d.kind === kind);
const named = (docs: K8sObject[], kind: string, name: string) => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};
const component = (d: K8sObject) => d.metadata.labels?.['app.kubernetes.io/component'];
const podSpec = (d: K8sObject) => d.spec.template.spec;
const mainContainer = (d: K8sObject): Container => podSpec(d).containers[0];
const envOf = (c: Container) => new Map(c.env.map((e) => [e.name, e]));
const matches = (selector: Labels, labels: Labels | undefined) =>
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** Every env var of every pod (Deployments, Jobs, the test pod). */
function allEnv(docs: K8sObject[]): EnvVar[] {
  return docs
    .filter((d) => d.kind === 'Deployment' || d.kind === 'Job')
    .flatMap((d) => podSpec(d).containers.flatMap((c: Container) => c.env ?? []));
}

/** The restricted Pod Security Standard, as the chart promises it. */
function expectRestricted(pod: any, container: Container) {
  expect(pod.securityContext).toMatchObject({
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  });
  expect(container.securityContext).toEqual({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  expect(pod.automountServiceAccountToken).toBe(false);
}

beforeAll(() => {
  helm = findHelm();
}, 600_000);

const withEngine = {
  'serviceMonitor.enabled': true,
  existingSecret: 'ratesmith-prod',
};
/** Everything on: the NATS CA, the PrometheusRule, the ServiceMonitor. */
const production: Values = {
  ...withEngine,
  'nats.tls.caSecret': 'nats-ca',
  'prometheusRule.enabled': true,
  'mongodb.uri': 'mongodb://mongodb-svc:27017/?replicaSet=mongodb',
};

describe('helm lint --strict', () => {
  it.each([
    ['NATS credentials', natsAuth],
    ['NATS credentials, TLS, PrometheusRule, ServiceMonitor, existing secret', { ...natsAuth, ...production }],
    ['NATS without login (k8s/)', { 'nats.auth.enabled': false }],
  ])('passes with %s', (_name, values) => {
    const result = spawnSync(helm, ['lint', '--strict', chart, ...helmArgs(values)], {
      encoding: 'utf8',
    });
    expect({ status: result.status, out: result.stdout + result.stderr }).toEqual({
      status: 0,
      out: expect.stringContaining('1 chart(s) linted, 0 chart(s) failed'),
    });
  });
});

describe('default values', () => {
  let docs: K8sObject[];
  let deployments: K8sObject[];
  beforeAll(() => {
    docs = render();
    deployments = ofKind(docs, 'Deployment');
  });

  it('deploys every service, two replicas each (the rate engine autoscaled), running their own main.js', () => {
    expect(deployments.map(component).sort()).toEqual([
      'auth',
      'catalog',
      'gateway',
      'rate-engine',
      'rules',
    ]);
    for (const d of deployments) {
      expect(d.spec.replicas).toBe(component(d) === 'rate-engine' ? undefined : 2);
      expect(mainContainer(d).command).toEqual(['node', `services/${component(d)}/dist/main.js`]);
      expect(mainContainer(d).image).toBe(`ghcr.io/ratesmith/${component(d)}:1.0.0`);
    }
  });

  it('probes every service on its health port: startup and liveness /healthz, readiness /readyz', () => {
    for (const d of deployments) {
      const c = mainContainer(d);
      const health = c.ports!.find((p) => p.name === 'health')!;
      expect(health.containerPort).toBe(9090);
      expect(envOf(c).get('HEALTH_PORT')?.value).toBe(String(health.containerPort));
      expect(c.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
    }
  });

  it('runs every pod restricted: non-root, read-only root, no capabilities, RuntimeDefault seccomp', () => {
    for (const d of [...deployments, ...ofKind(docs, 'Job')]) {
      expectRestricted(podSpec(d), mainContainer(d));
      // The read-only root filesystem leaves /tmp to an emptyDir; the NATS CA is read-only.
      expect(mainContainer(d).volumeMounts).toEqual([
        { name: 'tmp', mountPath: '/tmp' },
        { name: 'nats-ca', mountPath: '/etc/ratesmith/nats-ca', readOnly: true },
      ]);
    }
    const testPod = ofKind(docs, 'Pod')[0]!;
    expectRestricted(testPod.spec, testPod.spec.containers[0]);
  });

  it('runs every service with the NODE_OPTIONS the devstack gives its services', () => {
    for (const d of deployments)
      expect(envOf(mainContainer(d)).get('NODE_OPTIONS')?.value).toBe(nodeOptionsOf(component(d)!));
  });

  it('sets NODE_ENV=production and never DEMO_MODE', () => {
    for (const d of [...deployments, ...ofKind(docs, 'Job')]) {
      const env = envOf(mainContainer(d));
      expect(env.get('NODE_ENV')?.value).toBe('production');
      expect(env.has('DEMO_MODE')).toBe(false);
      expect(env.has('DEMO_SHOPS')).toBe(false);
    }
  });

  it('gives each service the environment its configuration parses', () => {
    const names = (name: string) =>
      [...envOf(mainContainer(named(docs, 'Deployment', `rs-ratesmith-${name}`))).keys()].sort();
    const common = [
      'HEALTH_PORT',
      'JETSTREAM_REPLICAS',
      'LOG_LEVEL',
      'NATS_NKEY_SEED',
      'NATS_REQUEST_TIMEOUT_MS',
      'NATS_SUBJECT_PREFIX',
      'NATS_TLS_CA_FILE',
      'NATS_URL',
      'NODE_ENV',
      'NODE_OPTIONS',
      'OTEL_SERVICE_NAME',
      'SHUTDOWN_TIMEOUT_MS',
      'SNAPSHOT_BUCKET',
    ];
    const mongo = ['MONGODB_AUTO_INDEX', 'MONGODB_DB', 'MONGODB_TIMEOUT_MS', 'MONGODB_URI'];
    const gateway = [
      'APP_URL',
      'FRONTEND_DIST',
      'PORT',
      'SHOPIFY_API_KEY',
      'SHOPIFY_API_SECRET',
      'TRAINING_VIDEO_URL',
      'TRUST_PROXY_HOPS',
    ];
    const auth = [
      'APP_URL',
      'RATE_ENGINE_URL',
      'SHOPIFY_API_KEY',
      'SHOPIFY_API_SECRET',
      'TOKEN_ENCRYPTION_KEYS',
    ];
    const rateEngine = ['CARRIER_HMAC_MODE', 'PORT', 'SHOPIFY_API_SECRET'];
    expect(names('gateway')).toEqual([...common, ...gateway].sort());
    expect(names('rules')).toEqual([...common, ...mongo].sort());
    expect(names('auth')).toEqual([...common, ...mongo, ...auth].sort());
    // The catalog calls no Shopify itself: auth runs its queries.
    expect(names('catalog')).toEqual(common);
    expect(names('rate-engine')).toEqual([...common, ...rateEngine].sort());
    const auths = envOf(mainContainer(named(docs, 'Deployment', 'rs-ratesmith-auth')));
    // Shopify calls the carrier service on the app's host; the Ingress routes /carrier.
    expect(auths.get('RATE_ENGINE_URL')?.value).toBe('https://ratesmith.example.com');
    const rules = envOf(mainContainer(named(docs, 'Deployment', 'rs-ratesmith-rules')));
    expect(rules.get('MONGODB_DB')?.value).toBe('ratesmith_rules');
    expect(rules.get('SNAPSHOT_BUCKET')?.value).toBe('ratesmith_snapshots');
    // Production's NATS is a 3-server cluster: the bucket and the stream keep 3 copies.
    expect(rules.get('JETSTREAM_REPLICAS')?.value).toBe('3');
    expect(rules.get('MONGODB_AUTO_INDEX')?.value).toBe('false');
    const gw = envOf(mainContainer(named(docs, 'Deployment', 'rs-ratesmith-gateway')));
    expect(gw.get('APP_URL')?.value).toBe('https://ratesmith.example.com');
    // Empty: the walkthrough built into the image.
    expect(gw.get('TRAINING_VIDEO_URL')?.value).toBe('');
  });

  it('gives a stopping pod time for the preStop sleep and the whole shutdown timeout', () => {
    for (const d of deployments) {
      const c = mainContainer(d);
      const sleep = Number(c.lifecycle.preStop.exec.command[1]);
      const shutdownSeconds = Number(envOf(c).get('SHUTDOWN_TIMEOUT_MS')?.value) / 1000;
      expect(sleep).toBeGreaterThan(0);
      expect(shutdownSeconds).toBe(10);
      expect(podSpec(d).terminationGracePeriodSeconds).toBeGreaterThan(sleep + shutdownSeconds);
    }
  });

  it('requests CPU and memory and limits memory for every container', () => {
    for (const d of [...deployments, ...ofKind(docs, 'Job')]) {
      const { requests, limits } = mainContainer(d).resources;
      expect(Object.keys(requests).sort()).toEqual(['cpu', 'memory']);
      expect(limits.memory).toBeDefined();
    }
  });

  it("selects each Deployment's pods with its own labels and one Service, never by version", () => {
    const services = ofKind(docs, 'Service');
    for (const d of deployments) {
      const selector: Labels = d.spec.selector.matchLabels;
      expect(Object.keys(selector)).not.toContain('app.kubernetes.io/version');
      expect(matches(selector, d.spec.template.metadata.labels)).toBe(true);
      // No other Deployment's pods carry these labels.
      const others = deployments.filter((o) => o !== d);
      expect(others.some((o) => matches(selector, o.spec.template.metadata.labels))).toBe(false);
      const selecting = services.filter((s) =>
        matches(s.spec.selector, d.spec.template.metadata.labels),
      );
      expect(selecting.map((s) => s.metadata.name)).toEqual([d.metadata.name]);
      // Every Service port targets a container port that exists.
      const portNames = mainContainer(d).ports!.map((p) => p.name);
      for (const port of selecting[0]!.spec.ports) expect(portNames).toContain(port.targetPort);
    }
  });

  it('routes everything to the gateway, for appUrl’s host, while the rate engine is off', () => {
    const [ingress, ...more] = ofKind(render({ 'services.rate-engine.enabled': false }), 'Ingress');
    expect(more).toHaveLength(0);
    const [rule] = ingress!.spec.rules;
    expect(rule.host).toBe('ratesmith.example.com');
    expect(rule.http.paths).toEqual([
      {
        path: '/',
        pathType: 'Prefix',
        backend: { service: { name: 'rs-ratesmith-gateway', port: { name: 'http' } } },
      },
    ]);
    expect(JSON.stringify(ingress)).not.toContain('/carrier');
  });

  it('has a PodDisruptionBudget (maxUnavailable 1) per Deployment and an autoscaler for the rate engine only', () => {
    const pdbs = ofKind(docs, 'PodDisruptionBudget');
    expect(pdbs).toHaveLength(deployments.length);
    for (const d of deployments) {
      const pdb = named(docs, 'PodDisruptionBudget', d.metadata.name);
      expect(pdb.spec.maxUnavailable).toBe(1);
      expect(pdb.spec.selector.matchLabels).toEqual(d.spec.selector.matchLabels);
    }
    expect(ofKind(docs, 'HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name)).toEqual([
      'rs-ratesmith-rate-engine',
    ]);
  });

  it('builds indexes in pre-install/pre-upgrade hook Jobs, after the Secret they read', () => {
    const jobs = ofKind(docs, 'Job');
    expect(jobs.map((j) => mainContainer(j).command).sort()).toEqual([
      ['node', 'services/auth/dist/migrate.js'],
      ['node', 'services/rules/dist/migrate.js'],
    ]);
    const secret = ofKind(docs, 'Secret')[0]!;
    expect(secret.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const secretWeight = Number(secret.metadata.annotations?.['helm.sh/hook-weight']);
    for (const job of jobs) {
      const annotations = job.metadata.annotations ?? {};
      expect(annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      expect(Number(annotations['helm.sh/hook-weight'])).toBeGreaterThan(secretWeight);
      expect(annotations['helm.sh/hook-delete-policy']).toContain('before-hook-creation');
      expect(podSpec(job).restartPolicy).toBe('Never');
      // migrate.js parses the service's own configuration: same variables, same values.
      const service = named(docs, 'Deployment', job.metadata.name.replace(/-migrate$/, ''));
      expect(mainContainer(job).env).toEqual(mainContainer(service).env);
      expect(mainContainer(job).image).toBe(mainContainer(service).image);
    }
  });

  it("references secrets only through secretKeyRef to the chart's Secret and the NATS seeds'", () => {
    const secret = ofKind(docs, 'Secret')[0]!;
    expect(secret.metadata.name).toBe('rs-ratesmith-secrets');
    const keys = Object.keys(secret.data ?? {}).sort();
    expect(keys).toEqual(['MONGODB_URI', 'SHOPIFY_API_SECRET', 'TOKEN_ENCRYPTION_KEYS']);
    const env = allEnv(docs);
    for (const e of env.filter((e) => keys.includes(e.name))) {
      expect(e.value).toBeUndefined();
      expect(e.valueFrom?.secretKeyRef).toEqual({ name: 'rs-ratesmith-secrets', key: e.name });
    }
    for (const e of env.filter((e) => e.valueFrom && e.name !== 'NATS_NKEY_SEED'))
      expect(keys).toContain(e.valueFrom!.secretKeyRef!.key);
    const seeds = env.filter((e) => e.name === 'NATS_NKEY_SEED');
    expect(seeds.length).toBeGreaterThan(0);
    for (const e of seeds) expect(e.valueFrom?.secretKeyRef?.name).toBe('ratesmith-nats-users');
  });

  it('lets each pod talk only to what it needs', () => {
    const policies = ofKind(docs, 'NetworkPolicy');
    // One per service, one in front of NATS, one in front of MongoDB.
    expect(policies.map(component).sort()).toEqual(
      [...deployments.map(component), 'mongodb', 'nats'].sort(),
    );
    const ingressPorts = (name: string) =>
      named(docs, 'NetworkPolicy', `rs-ratesmith-${name}`).spec.ingress.map(
        (rule: { from: any[]; ports: { port: string }[] }) => [
          rule.from.map(
            (f) => f.namespaceSelector?.matchLabels['kubernetes.io/metadata.name'] ?? 'test pod',
          ),
          rule.ports.map((p) => p.port),
        ],
      );
    const egressPorts = (name: string) =>
      named(docs, 'NetworkPolicy', `rs-ratesmith-${name}`).spec.egress.flatMap(
        (rule: { to?: unknown; ports: { port: number }[] }) => rule.ports.map((p) => p.port),
      );
    // rules and auth speak only NATS: no ingress but health and metrics.
    for (const name of ['rules', 'auth']) {
      expect(ingressPorts(name)).toEqual([[['monitoring', 'test pod'], ['health']]]);
    }
    expect(ingressPorts('gateway')).toEqual([
      [['monitoring', 'test pod'], ['health']],
      [['ingress-nginx'], ['http']],
    ]);
    expect(egressPorts('gateway')).toEqual([53, 53, 4222]);
    expect(egressPorts('rules')).toEqual([53, 53, 4222, 27017]);
    expect(egressPorts('auth')).toEqual([53, 53, 4222, 27017, 443]);
    // The catalog reaches Shopify through auth, never itself.
    expect(egressPorts('catalog')).toEqual([53, 53, 4222]);
    for (const d of deployments) {
      const policy = named(docs, 'NetworkPolicy', d.metadata.name);
      expect(policy.spec.podSelector.matchLabels).toEqual(d.spec.selector.matchLabels);
      expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    }
  });

  it('creates no ServiceMonitor unless asked (its CRD may be missing)', () => {
    expect(ofKind(docs, 'ServiceMonitor')).toHaveLength(0);
  });

  it('ships a Grafana dashboard with the panels on-call needs', () => {
    const configMap = named(docs, 'ConfigMap', 'rs-ratesmith-dashboard');
    expect(configMap.metadata.labels?.grafana_dashboard).toBe('1');
    const dashboard = JSON.parse(configMap.data!['ratesmith.json']!);
    const exprs: string[] = dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) =>
      (p.targets ?? []).map((t) => t.expr),
    );
    const panelFor = (pattern: RegExp) => exprs.filter((e) => pattern.test(e));
    // HTTP rate and p99 per service, from the OpenTelemetry HTTP histogram.
    expect(panelFor(/rate\(http_server_request_duration_count\{/)).not.toHaveLength(0);
    expect(
      panelFor(/histogram_quantile\(0\.99, sum by \(job, le\).*http_server_request_duration/),
    ).not.toHaveLength(0);
    expect(panelFor(/ratesmith_rpc_server_duration_count\{.*outcome!="ok"/)).not.toHaveLength(0);
    expect(
      panelFor(/histogram_quantile\(0\.99, .*ratesmith_quote_duration_bucket/),
    ).not.toHaveLength(0);
    expect(panelFor(/kube_pod_container_status_restarts_total/)).not.toHaveLength(0);
    // The web vitals row: p75 of each page against Built for Shopify's bar, never by shop.
    const row = dashboard.panels.findIndex(
      (p: { type: string; title: string }) =>
        p.type === 'row' && p.title === "Web vitals (merchants' browsers)",
    );
    expect(row).toBeGreaterThan(0);
    const vitals = dashboard.panels.slice(row + 1) as {
      targets: { expr: string }[];
      fieldConfig: { defaults: { thresholds?: { steps: { value: number | null }[] } } };
    }[];
    for (const [metric, bar] of [
      ['lcp', 2.5],
      ['cls', 0.1],
      ['inp', 200],
    ] as const) {
      const panel = vitals.find((p) =>
        p.targets.some((t) =>
          t.expr.startsWith(
            `histogram_quantile(0.75, sum by (page, le) (rate(ratesmith_web_vitals_${metric}_bucket{`,
          ),
        ),
      );
      expect(panel?.fieldConfig.defaults.thresholds?.steps.map((s) => s.value)).toEqual([
        null,
        bar,
      ]);
    }
    expect(exprs.filter((e) => e.includes('ratesmith_web_vitals') && /shop/.test(e))).toEqual([]);
  });

  it("has a helm test pod that curls the gateway's /readyz", () => {
    const [pod] = ofKind(docs, 'Pod');
    expect(pod!.metadata.annotations?.['helm.sh/hook']).toBe('test');
    const command: string[] = pod!.spec.containers[0].command;
    expect(command[0]).toBe('curl');
    expect(command).toContain('--fail');
    expect(command.at(-1)).toBe('http://rs-ratesmith-gateway:9090/readyz');
  });
});

describe('ServiceMonitor on, an existing secret', () => {
  let docs: K8sObject[];
  beforeAll(() => {
    docs = render(withEngine);
  });

  it('routes /carrier to the rate engine and the rest to the gateway', () => {
    const paths = ofKind(docs, 'Ingress')[0]!.spec.rules[0].http.paths;
    const routes = paths.map((p: { path: string; backend: any }) => [
      p.path,
      p.backend.service.name,
      p.backend.service.port.name,
    ]);
    expect(routes).toEqual(
      expect.arrayContaining([
        ['/carrier', 'rs-ratesmith-rate-engine', 'http'],
        ['/', 'rs-ratesmith-gateway', 'http'],
      ]),
    );
    expect(routes).toHaveLength(2);
    const engineService = named(docs, 'Service', 'rs-ratesmith-rate-engine');
    expect(engineService.spec.ports.map((p: { name: string }) => p.name)).toContain('http');
  });

  it('autoscales the rate engine and leaves its replica count to the autoscaler', () => {
    const hpas = ofKind(docs, 'HorizontalPodAutoscaler');
    expect(hpas).toHaveLength(1);
    expect(hpas[0]!.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'rs-ratesmith-rate-engine',
    });
    expect(hpas[0]!.spec.minReplicas).toBe(2);
    const engine = named(docs, 'Deployment', 'rs-ratesmith-rate-engine');
    expect(engine.spec.replicas).toBeUndefined();
    expect(named(docs, 'Deployment', 'rs-ratesmith-gateway').spec.replicas).toBe(2);
  });

  it('adds the rate engine with a budget, a policy letting the ingress controller in, and the app secret', () => {
    expect(ofKind(docs, 'Deployment').map(component).sort()).toEqual([
      'auth',
      'catalog',
      'gateway',
      'rate-engine',
      'rules',
    ]);
    expect(ofKind(docs, 'PodDisruptionBudget')).toHaveLength(5);
    const policy = named(docs, 'NetworkPolicy', 'rs-ratesmith-rate-engine');
    expect(policy.spec.ingress[1].ports).toEqual([{ port: 'http' }]);
    const env = envOf(mainContainer(named(docs, 'Deployment', 'rs-ratesmith-rate-engine')));
    expect(env.get('SHOPIFY_API_SECRET')?.valueFrom?.secretKeyRef).toEqual({
      name: 'ratesmith-prod',
      key: 'SHOPIFY_API_SECRET',
    });
    expect(env.get('PORT')?.value).toBe('8080');
  });

  it('uses the existing secrets (the app one, the NATS seeds) and creates none', () => {
    expect(ofKind(docs, 'Secret')).toHaveLength(0);
    const refs = allEnv(docs)
      .filter((e) => e.valueFrom)
      .map((e) => e.valueFrom!.secretKeyRef!.name);
    expect(new Set(refs)).toEqual(new Set(['ratesmith-prod', 'ratesmith-nats-users']));
    // Nothing to roll on: the checksum annotation is only for the chart's own Secret.
    for (const d of ofKind(docs, 'Deployment')) {
      expect(d.spec.template.metadata.annotations?.['checksum/secret']).toBeUndefined();
    }
  });

  it("scrapes every Service's /metrics on the health port, named by service", () => {
    const [monitor] = ofKind(docs, 'ServiceMonitor');
    expect(monitor!.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor!.spec.endpoints).toEqual([
      { port: 'health', path: '/metrics', interval: '30s' },
    ]);
    expect(monitor!.spec.jobLabel).toBe('app.kubernetes.io/component');
    for (const service of ofKind(docs, 'Service')) {
      expect(matches(monitor!.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
      expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain('health');
    }
  });
});

it('never puts a secret value in plain text, and stores it in the Secret only', () => {
  const values = {
    'shopify.apiSecret': 'sentinel-shopify-secret',
    'mongodb.uri': 'mongodb://user:sentinel-db-password@mongo:27017/?replicaSet=rs0',
    tokenEncryptionKeys: 'k1:c2VudGluZWwta2V5LXNlbnRpbmVsLWtleS1zZW50aW5lbC0=',
  };
  const text = renderText(values);
  expect(text).not.toContain('sentinel-shopify-secret');
  expect(text).not.toContain('sentinel-db-password');
  expect(text).not.toContain(values.tokenEncryptionKeys);
  const secret = ofKind(parseObjects(text), 'Secret')[0]!;
  const decoded = (key: string) => Buffer.from(secret.data![key]!, 'base64').toString('utf8');
  expect(decoded('SHOPIFY_API_SECRET')).toBe(values['shopify.apiSecret']);
  expect(decoded('MONGODB_URI')).toBe(values['mongodb.uri']);
  expect(decoded('TOKEN_ENCRYPTION_KEYS')).toBe(values.tokenEncryptionKeys);
});

it('keeps every name within 63 characters without merging two components', () => {
  const docs = render({ fullnameOverride: 'a'.repeat(63) });
  const names = ofKind(docs, 'Deployment').map((d) => d.metadata.name);
  expect(new Set(names).size).toBe(5);
  for (const d of docs) expect(d.metadata.name.length).toBeLessThanOrEqual(63);
  expect(names).toContain(`${'a'.repeat(62 - 'rate-engine'.length)}-rate-engine`);
});

it.each([
  ['services.gateway.replicas=abc', "at '/services/gateway/replicas': got string, want integer"],
  ['appUrl=http://ratesmith.example.com', "at '/appUrl'"],
  ['services.gateway.env.DEMO_MODE=true', "at '/services/gateway/env/DEMO_MODE': false schema"],
  ['services.rules.env.NODE_ENV=development', "at '/services/rules/env/NODE_ENV': false schema"],
  ['ingres.enabled=false', "additional properties 'ingres' not allowed"],
  ['mongodb.uri=postgres://db/', "at '/mongodb/uri'"],
  ['nats.subjectPrefix=a*', "at '/nats/subjectPrefix'"],
  ['mongodb.uri=mongodb://mongo:27017/', "at '/mongodb/uri'"],
  ['nats.auth.publicKeys.auth=SUABC', "at '/nats/auth/publicKeys/auth'"],
  ['services.rules.env.NATS_NKEY_SEED=x', "at '/services/rules/env/NATS_NKEY_SEED': false schema"],
  ['services.rules.env.SNAPSHOT_BUCKET=x', "at '/services/rules/env/SNAPSHOT_BUCKET': false schema"],
  ['nats.jetstreamReplicas=0', "at '/nats/jetstreamReplicas'"],
  ['networkPolicy.nats.clusterPort=0', "at '/networkPolicy/nats/clusterPort'"],
  ['prometheusRule.enabled=yes', "at '/prometheusRule/enabled'"],
  ['podDisruptionBudget.maxUnavailable=0', "at '/podDisruptionBudget/maxUnavailable'"],
  ['trainingVideoUrl=http://videos.example.com/a.mp4', "at '/trainingVideoUrl'"],
])('refuses %s (values.schema.json)', (bad, message) => {
  const [key, value] = bad.split(/=(.*)/s) as [string, string];
  expect(renderFailure({ ...natsAuth, [key]: value })).toEqual({
    status: 1,
    stderr: expect.stringContaining(message),
  });
});

describe('values.yaml', () => {
  const valuesText = readFileSync(join(chart, 'values.yaml'), 'utf8');
  const values = parse(valuesText) as Record<string, unknown>;
  // `## @param <path> <description>`; per-service keys are written services.<name>.<key>.
  const documented = [...valuesText.matchAll(/^## @param (\S+) \S/gm)].map((m) => m[1]!);
  const generic = (path: string) => path.replace(/^services\.[^.]+/, 'services.<name>');

  /** Paths of the values, stopping at documented ones (maps like `resources` are one value). */
  function valuePaths(node: unknown, prefix: string): string[] {
    if (prefix && documented.includes(generic(prefix))) return [prefix];
    if (node && typeof node === 'object' && !Array.isArray(node)) {
      return Object.entries(node).flatMap(([k, v]) => valuePaths(v, prefix ? `${prefix}.${k}` : k));
    }
    return [prefix];
  }
  const paths = valuePaths(values, '');

  it('documents every value with ## @param, and documents nothing that is not a value', () => {
    expect(paths.filter((p) => !documented.includes(generic(p)))).toEqual([]);
    expect(documented.filter((d) => !paths.map(generic).includes(d))).toEqual([]);
  });

  it('has no dead values: the templates read every one', () => {
    const templates = join(chart, 'templates');
    const text = [
      ...readdirSync(templates, { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(yaml|tpl|txt)$/.test(f))
        .map((f) => readFileSync(join(templates, f), 'utf8')),
      valuesText, // values rendered with tpl (services.gateway.env) read other values
    ].join('\n');
    const unread = documented.filter((d) =>
      d.startsWith('services.<name>.')
        ? !text.includes(`svc.${d.slice('services.<name>.'.length)}`)
        : !text.includes(`.Values.${d}`),
    );
    expect(unread).toEqual([]);
  });

  it('is listed in the chart README', () => {
    const readme = readFileSync(join(chart, 'README.md'), 'utf8');
    const listed = (d: string) =>
      readme.includes(`\`${d}\``) ||
      d
        .split('.')
        .slice(0, -1)
        .some((_, i, parts) => readme.includes(`\`${parts.slice(0, i + 1).join('.')}.*\``));
    expect(documented.filter((d) => !listed(d))).toEqual([]);
  });
});

it('keeps k8s/ratesmith.yaml equal to the chart rendered with default values, NATS without login', () => {
  // Regenerate with scripts/render-k8s.sh.
  const committed = readFileSync(join(root, 'k8s', 'ratesmith.yaml'), 'utf8');
  const rendered = execFileSync(
    helm,
    [
      'template',
      'ratesmith',
      chart,
      '--namespace',
      'ratesmith',
      '--skip-tests',
      '--set',
      'nats.auth.enabled=false',
    ],
    { encoding: 'utf8' },
  );
  expect(committed.slice(committed.indexOf('\n---\n') + 1)).toBe(rendered);
});

describe('NATS credentials and TLS', () => {
  it('refuses to render without the Secret of seeds or a public key, unless nats.auth.enabled=false', () => {
    expect(renderFailure({ 'nats.tls.caSecret': 'ca' })).toEqual({
      status: 1,
      stderr: expect.stringContaining('nats.auth.existingSecret is required'),
    });
    // Logins without TLS would send the seeds in the clear: refused unless asked for.
    const { ['nats.tls.caSecret']: _ca, ...plain } = natsAuth;
    expect(renderFailure(plain)).toEqual({
      status: 1,
      stderr: expect.stringContaining('nats.tls.caSecret is required'),
    });
    expect(renderFailure({ ...plain, 'nats.tls.allowPlaintext': true }).status).toBe(0);
    const { ['nats.auth.publicKeys.catalog']: _left, ...withoutCatalog } = natsAuth;
    expect(renderFailure(withoutCatalog)).toEqual({
      status: 1,
      stderr: expect.stringContaining('nats.auth.publicKeys.catalog is required'),
    });
    // A disabled service needs no key.
    expect(renderFailure({ ...withoutCatalog, 'services.catalog.enabled': false }).status).toBe(0);
    const open = parseObjects(
      execFileSync(helm, ['template', 'rs', chart, '--set', 'nats.auth.enabled=false'], {
        encoding: 'utf8',
      }),
    );
    expect(allEnv(open).filter((e) => e.name === 'NATS_NKEY_SEED')).toEqual([]);
    expect(open.some((d) => d.metadata.name === 'rs-ratesmith-nats-authorization')).toBe(false);
  });

  it("gives every container its own service's seed, and renders each public key once", () => {
    const docs = render();
    const pods = docs.filter((d) => d.kind === 'Deployment' || d.kind === 'Job');
    expect(pods.length).toBe(BUS_SERVICES.length + 2);
    for (const d of pods) {
      const service = component(d)!.replace(/-migrate$/, '');
      expect(envOf(mainContainer(d)).get('NATS_NKEY_SEED')?.valueFrom?.secretKeyRef).toEqual({
        name: 'ratesmith-nats-users',
        key: service,
      });
    }
    const conf = named(docs, 'ConfigMap', 'rs-ratesmith-nats-authorization').data![
      'authorization.conf'
    ]!;
    for (const service of BUS_SERVICES)
      expect(conf.split(natsKeys[service].publicKey)).toHaveLength(2);
  });

  it('mounts the NATS CA read-only into every pod and points NATS_TLS_CA_FILE at it', () => {
    const docs = render({ 'nats.tls.caSecret': 'nats-ca', 'nats.tls.caKey': 'tls-ca.pem' });
    const pods = docs.filter((d) => d.kind === 'Deployment' || d.kind === 'Job');
    expect(pods).toHaveLength(BUS_SERVICES.length + 2);
    for (const d of pods) {
      const c = mainContainer(d);
      const file = envOf(c).get('NATS_TLS_CA_FILE')?.value;
      const mount = c.volumeMounts.find((m: { name: string }) => m.name === 'nats-ca');
      expect(mount).toEqual({ name: 'nats-ca', mountPath: '/etc/ratesmith/nats-ca', readOnly: true });
      const volume = podSpec(d).volumes.find((v: { name: string }) => v.name === 'nats-ca');
      expect(volume.secret.secretName).toBe('nats-ca');
      expect(file).toBe(`${mount.mountPath}/${volume.secret.items[0].path}`);
      expect(volume.secret.items[0].key).toBe('tls-ca.pem');
    }
    // Without a CA (allowed only when asked for): no mount, no variable (no TLS).
    const plain = render({ 'nats.tls.caSecret': '', 'nats.tls.allowPlaintext': true });
    for (const d of ofKind(plain, 'Deployment')) {
      expect(envOf(mainContainer(d)).has('NATS_TLS_CA_FILE')).toBe(false);
      expect(podSpec(d).volumes.map((v: { name: string }) => v.name)).toEqual(['tmp']);
    }
  });
});

describe('NetworkPolicies in front of NATS and MongoDB', () => {
  const releasePods = (namespace: string) => ({
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
    podSelector: {
      matchLabels: { 'app.kubernetes.io/name': 'ratesmith', 'app.kubernetes.io/instance': 'rs' },
    },
  });
  const rules = (policy: K8sObject) =>
    policy.spec.ingress.map((r: { from: unknown[]; ports: { port: number }[] }) => [
      r.from,
      r.ports.map((p) => p.port),
    ]);

  it("admit only this release's pods to the client ports, routes between NATS servers, and monitoring", () => {
    const docs = render();
    const nats = named(docs, 'NetworkPolicy', 'rs-ratesmith-nats');
    const natsPods = {
      'app.kubernetes.io/name': 'nats',
      'app.kubernetes.io/component': 'nats',
    };
    expect(nats.metadata.namespace).toBe('default');
    expect(nats.spec.podSelector).toEqual({ matchLabels: natsPods });
    expect(nats.spec.policyTypes).toEqual(['Ingress']);
    expect(rules(nats)).toEqual([
      [[releasePods('default')], [4222]],
      [[{ podSelector: { matchLabels: natsPods } }], [6222]],
      [[{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], [8222, 7777]],
    ]);
    const mongo = named(docs, 'NetworkPolicy', 'rs-ratesmith-mongodb');
    expect(mongo.spec.podSelector).toEqual({ matchLabels: { app: 'mongodb-svc' } });
    expect(rules(mongo)).toEqual([
      [[releasePods('default'), { podSelector: { matchLabels: { app: 'mongodb-svc' } } }], [27017]],
    ]);
    // The release's pods that use them carry the labels the policies admit.
    for (const d of docs.filter((o) => o.kind === 'Deployment' || o.kind === 'Job'))
      expect(matches(releasePods('x').podSelector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
  });

  it('follow the values: namespaces, labels, ports, extra peers; off for servers outside the cluster', () => {
    const docs = render({
      'nats.port': 4443,
      'networkPolicy.nats.namespace': 'messaging',
      'networkPolicy.nats.podLabels.app': 'my-nats',
      'networkPolicy.nats.extraFrom[0].podSelector.matchLabels.app': 'nats-box',
      'mongodb.port': 27018,
      'networkPolicy.mongodb.namespace': 'db',
      'networkPolicy.mongodb.metricsPort': 9216,
    });
    const nats = named(docs, 'NetworkPolicy', 'rs-ratesmith-nats');
    expect(nats.metadata.namespace).toBe('messaging');
    expect(nats.spec.podSelector.matchLabels.app).toBe('my-nats');
    expect(rules(nats)[0]).toEqual([
      [releasePods('default'), { podSelector: { matchLabels: { app: 'nats-box' } } }],
      [4443],
    ]);
    const mongo = named(docs, 'NetworkPolicy', 'rs-ratesmith-mongodb');
    expect(mongo.metadata.namespace).toBe('db');
    expect(rules(mongo).map((r: unknown[]) => r[1])).toEqual([[27018], [9216]]);
    const outside = render({
      'networkPolicy.nats.enabled': false,
      'networkPolicy.mongodb.enabled': false,
    });
    expect(ofKind(outside, 'NetworkPolicy').map(component)).not.toEqual(
      expect.arrayContaining(['nats']),
    );
    expect(ofKind(outside, 'NetworkPolicy').map(component)).not.toContain('mongodb');
    expect(ofKind(render({ 'networkPolicy.enabled': false }), 'NetworkPolicy')).toEqual([]);
  });
});

describe('PrometheusRule', () => {
  it('is off by default (its CRD may be missing)', () => {
    expect(ofKind(render(), 'PrometheusRule')).toEqual([]);
  });

  it('carries files/alerts.yaml, its labels, and runbook links into the configured runbook', () => {
    const docs = render({
      'prometheusRule.enabled': true,
      'prometheusRule.labels.release': 'kube-prometheus-stack',
      'prometheusRule.runbookUrl': 'https://git.example.com/ratesmith/docs/operations.md',
    });
    const [rule, ...more] = ofKind(docs, 'PrometheusRule');
    expect(more).toEqual([]);
    expect(rule!.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(rule!.metadata.labels?.release).toBe('kube-prometheus-stack');
    const file = parse(readFileSync(join(chart, 'files', 'alerts.yaml'), 'utf8'));
    const alerts = (groups: any[]) => groups.flatMap((g) => g.rules);
    expect(alerts(rule!.spec.groups).map((r) => r.expr)).toEqual(
      alerts(file.groups).map((r) => r.expr),
    );
    for (const r of alerts(rule!.spec.groups)) {
      expect(r.annotations.runbook_url).toBe(
        `https://git.example.com/ratesmith/docs/operations.md#${r.alert.toLowerCase()}`,
      );
    }
  });
});
