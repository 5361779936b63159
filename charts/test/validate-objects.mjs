// Validates Kubernetes objects against the OpenAPI schemas of the kubernetes-models
// packages (Kubernetes' own, and the Prometheus Operator's CRDs). Both packages are ES
// modules, which jest's CommonJS runtime cannot load, so charts/test runs this with
// node: objects as a JSON array on stdin, one line of JSON out, the problems found
// ([] when every object is valid). An apiVersion/kind with no model is a problem too.
import * as kubernetes from 'kubernetes-models';
import * as prometheusOperator from '@kubernetes-models/prometheus-operator';

const packages = { ...kubernetes, ...prometheusOperator };

/** `networking.k8s.io/v1` is exported as networkingK8sIo.v1; the core group `v1` as v1. */
function modelOf(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const groupName = group
    ? group
        .split('.')
        .map((part, i) => (i === 0 ? part : part[0].toUpperCase() + part.slice(1)))
        .join('')
    : undefined;
  const versions = groupName ? packages[groupName] : packages;
  return versions?.[version]?.[kind];
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const problems = [];
for (const object of JSON.parse(input)) {
  const where = `${object.apiVersion} ${object.kind} ${object.metadata?.name}`;
  const Model = modelOf(object.apiVersion ?? '', object.kind ?? '');
  if (!Model) {
    problems.push(`${where}: no schema for this apiVersion and kind`);
    continue;
  }
  try {
    new Model(object).validate();
  } catch (err) {
    problems.push(`${where}: ${err.message}`);
  }
}
process.stdout.write(`${JSON.stringify(problems)}\n`);
