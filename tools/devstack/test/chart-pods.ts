import { execFileSync } from 'node:child_process';
import {
  chart,
  findHelm,
  helmArgs,
  parseObjects,
  type K8sObject,
  type Values,
} from '../../../charts/test/helm';

/**
 * The containers the chart would run, read from `helm template`: one source for
 * the images' suite (images.int.spec.ts), so a container here gets the image,
 * command, environment, security context and volumes a pod gets in production.
 */
export interface ChartContainer {
  /** The Deployment's or Job's name without the release prefix: `auth`, `rules-migrate`. */
  name: string;
  kind: 'Deployment' | 'Job';
  image: string;
  command: string[];
  /** Every variable as the pod sees it, the secretKeyRefs resolved from `secrets`. */
  env: Record<string, string>;
  ports: Record<string, number>;
  runAsUser: number;
  runAsGroup: number;
  readOnlyRootFilesystem: boolean;
  droppedCapabilities: string[];
  allowPrivilegeEscalation: boolean;
  /** mountPath -> the volume's emptyDir sizeLimit (the chart's /tmp), or the Secret's name. */
  volumes: { path: string; emptyDirSizeLimit?: string; secretName?: string }[];
}

/** Secrets the pods reference and the chart does not make (existingSecret, the NATS users'). */
export type Secrets = Record<string, Record<string, string>>;

const RELEASE = 'rs';

/** The chart's Deployments and migration Jobs with `values`, their secretKeyRefs read from `secrets`. */
export function chartContainers(values: Values, secrets: Secrets): ChartContainer[] {
  const rendered = execFileSync(findHelm(), ['template', RELEASE, chart, ...helmArgs(values)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseObjects(rendered)
    .filter((o) => o.kind === 'Deployment' || (o.kind === 'Job' && !isHelmTest(o)))
    .map((o) => toContainer(o, secrets));
}

function isHelmTest(o: K8sObject): boolean {
  return o.metadata.annotations?.['helm.sh/hook'] === 'test';
}

function toContainer(o: K8sObject, secrets: Secrets): ChartContainer {
  const pod = o.spec.template.spec;
  const [c] = pod.containers;
  const env: Record<string, string> = {};
  for (const e of c.env as {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef: { name: string; key: string } };
  }[]) {
    if (e.valueFrom) {
      const { name, key } = e.valueFrom.secretKeyRef;
      const value = secrets[name]?.[key];
      if (value === undefined) throw new Error(`${o.metadata.name}: no ${key} in Secret ${name}`);
      env[e.name] = value;
    } else {
      env[e.name] = e.value ?? '';
    }
  }
  const volumes = (c.volumeMounts ?? []).map((m: { name: string; mountPath: string }) => {
    const v = pod.volumes.find((x: { name: string }) => x.name === m.name);
    return {
      path: m.mountPath,
      emptyDirSizeLimit: v.emptyDir?.sizeLimit,
      secretName: v.secret?.secretName,
    };
  });
  return {
    name: o.metadata.name.replace(new RegExp(`^${RELEASE}-(ratesmith-)?`), ''),
    kind: o.kind as 'Deployment' | 'Job',
    image: c.image,
    command: c.command,
    env,
    ports: Object.fromEntries(
      (c.ports ?? []).map((p: { name: string; containerPort: number }) => [
        p.name,
        p.containerPort,
      ]),
    ),
    runAsUser: pod.securityContext.runAsUser,
    runAsGroup: pod.securityContext.runAsGroup,
    readOnlyRootFilesystem: c.securityContext.readOnlyRootFilesystem === true,
    droppedCapabilities: c.securityContext.capabilities?.drop ?? [],
    allowPrivilegeEscalation: c.securityContext.allowPrivilegeEscalation !== false,
    volumes,
  };
}
