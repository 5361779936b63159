import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * Renders the Helm chart as a cluster would receive it and checks what SREs
 * rely on: probes, security context, selectors, routing, budgets, secrets.
 */
const root = join(__dirname, '..', '..');
const chart = join(root, 'charts', 'ratesmith');
let helm: string;

type Doc = { kind: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec: any };

function render(...sets: string[]): Doc[] {
  const out = execFileSync(helm, ['template', 'rs', chart, ...sets.flatMap((s) => ['--set', s])], { encoding: 'utf8' });
  return parseAllDocuments(out)
    .map((d) => d.toJS() as Doc)
    .filter(Boolean);
}
const ofKind = (docs: Doc[], kind: string) => docs.filter((d) => d.kind === kind);

beforeAll(() => {
  // Built once with Go into the tool cache when the machine has no helm (about 3 minutes cold).
  helm = execFileSync('bash', [join(root, 'scripts', 'ensure-helm.sh')], { encoding: 'utf8' }).trim();
}, 600_000);

it('passes helm lint --strict', () => {
  const result = spawnSync(helm, ['lint', '--strict', chart], { encoding: 'utf8' });
  expect([result.status, result.stdout]).toEqual([0, expect.stringContaining('0 chart(s) failed')]);
});

describe('default values', () => {
  let docs: Doc[];
  beforeAll(() => {
    docs = render();
  });

  it('deploys gateway, auth and rules with probes, restricted security and production settings', () => {
    const deployments = ofKind(docs, 'Deployment');
    expect(deployments.map((d) => d.metadata.labels?.['app.kubernetes.io/component']).sort()).toEqual(['auth', 'gateway', 'rules']);
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      const [container] = pod.containers;
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
      expect(container.ports.find((p: { name: string }) => p.name === 'health').containerPort).toBe(9090);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(container.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      const env = Object.fromEntries(container.env.map((e: { name: string; value?: string }) => [e.name, e.value ?? e]));
      expect(env.NODE_ENV).toBe('production');
      expect(env.DEMO_MODE).toBeUndefined();
      // Secrets are referenced, never inlined.
      for (const e of container.env) {
        if (/SECRET|MONGODB_URI/.test(e.name)) expect(e.valueFrom?.secretKeyRef).toBeDefined();
      }
      expect(d.spec.replicas).toBe(2);
    }
  });

  it("selects each Deployment's pods with its Service, and the selector matches the pod labels", () => {
    const services = ofKind(docs, 'Service');
    for (const d of ofKind(docs, 'Deployment')) {
      const selector = d.spec.selector.matchLabels;
      expect(d.spec.template.metadata.labels).toMatchObject(selector);
      expect(services.some((s) => JSON.stringify(s.spec.selector) === JSON.stringify(selector))).toBe(true);
    }
  });

  it('routes everything to the gateway when the rate engine is off', () => {
    const [ingress] = ofKind(docs, 'Ingress');
    const paths = ingress!.spec.rules[0].http.paths;
    expect(paths.map((p: { path: string; backend: any }) => [p.path, p.backend.service.name])).toEqual([['/', 'rs-ratesmith-gateway']]);
  });

  it('has a PodDisruptionBudget with maxUnavailable 1 for every service and no autoscaler', () => {
    const pdbs = ofKind(docs, 'PodDisruptionBudget');
    expect(pdbs).toHaveLength(3);
    for (const pdb of pdbs) expect(pdb.spec.maxUnavailable).toBe(1);
    expect(ofKind(docs, 'HorizontalPodAutoscaler')).toHaveLength(0);
  });

  it('builds indexes in hook Jobs, after the secret they need', () => {
    const jobs = ofKind(docs, 'Job');
    expect(jobs.map((j) => j.spec.template.spec.containers[0].command)).toEqual(
      expect.arrayContaining([
        ['node', 'services/auth/dist/migrate.js'],
        ['node', 'services/rules/dist/migrate.js'],
      ]),
    );
    for (const job of jobs) {
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      expect(Number(job.metadata.annotations?.['helm.sh/hook-weight'])).toBeGreaterThan(-10);
    }
    const [secret] = ofKind(docs, 'Secret');
    expect(secret!.metadata.annotations?.['helm.sh/hook-weight']).toBe('-10');
  });

  it('limits each pod to the traffic it needs', () => {
    const policies = ofKind(docs, 'NetworkPolicy');
    const rules = policies.find((p) => p.metadata.name === 'rs-ratesmith-rules')!;
    expect(rules.spec.ingress).toHaveLength(1);
    expect(rules.spec.ingress[0].ports).toEqual([{ port: 'health' }]);
    const egressPorts = rules.spec.egress.flatMap((e: { ports: { port: number }[] }) => e.ports.map((p) => p.port));
    expect(egressPorts).toEqual([53, 53, 4222, 27017]);
    const gateway = policies.find((p) => p.metadata.name === 'rs-ratesmith-gateway')!;
    expect(gateway.spec.ingress.map((i: { ports: { port: string }[] }) => i.ports[0]!.port)).toEqual(['health', 'http']);
  });

  it('ships a valid Grafana dashboard', () => {
    const [configMap] = ofKind(docs, 'ConfigMap');
    expect(configMap!.metadata.labels?.grafana_dashboard).toBe('1');
    const dashboard = JSON.parse((configMap as any).data['ratesmith.json']);
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(5);
  });
});

describe('rate engine on, ServiceMonitor on, an existing secret', () => {
  let docs: Doc[];
  beforeAll(() => {
    docs = render('services.rate-engine.enabled=true', 'serviceMonitor.enabled=true', 'existingSecret=ratesmith-prod');
  });

  it('routes /carrier to the rate engine and the rest to the gateway', () => {
    const paths = ofKind(docs, 'Ingress')[0]!.spec.rules[0].http.paths;
    expect(paths.map((p: { path: string; backend: any }) => [p.path, p.backend.service.name])).toEqual([
      ['/carrier', 'rs-ratesmith-rate-engine'],
      ['/', 'rs-ratesmith-gateway'],
    ]);
  });

  it('autoscales the rate engine and leaves its replica count to the autoscaler', () => {
    const [hpa] = ofKind(docs, 'HorizontalPodAutoscaler');
    expect(hpa!.spec.scaleTargetRef.name).toBe('rs-ratesmith-rate-engine');
    const engine = ofKind(docs, 'Deployment').find((d) => d.metadata.name === 'rs-ratesmith-rate-engine')!;
    expect(engine.spec.replicas).toBeUndefined();
  });

  it('uses the existing secret and creates none', () => {
    expect(ofKind(docs, 'Secret')).toHaveLength(0);
    const refs = ofKind(docs, 'Deployment').flatMap((d) =>
      d.spec.template.spec.containers[0].env.filter((e: any) => e.valueFrom).map((e: any) => e.valueFrom.secretKeyRef.name),
    );
    expect(new Set(refs)).toEqual(new Set(['ratesmith-prod']));
  });

  it('scrapes /metrics on the health port', () => {
    const [monitor] = ofKind(docs, 'ServiceMonitor');
    expect(monitor!.spec.endpoints).toEqual([{ port: 'health', path: '/metrics', interval: '30s' }]);
  });
});

it('refuses values the schema does not allow', () => {
  for (const bad of ['services.gateway.replicas=abc', 'appUrl=http://insecure.example.com', 'nats.subjectPrefix=a*']) {
    const result = spawnSync(helm, ['template', 'rs', chart, '--set', bad], { encoding: 'utf8' });
    expect([bad, result.status]).toEqual([bad, 1]);
  }
});

it('keeps k8s/ratesmith.yaml equal to the chart rendered with default values', () => {
  const committed = readFileSync(join(root, 'k8s', 'ratesmith.yaml'), 'utf8');
  const rendered = execFileSync(helm, ['template', 'ratesmith', chart, '--namespace', 'ratesmith', '--skip-tests'], { encoding: 'utf8' });
  expect(committed.slice(committed.indexOf('---'))).toBe(rendered.slice(rendered.indexOf('---')));
});
