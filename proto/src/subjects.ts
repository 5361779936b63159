import type { DescMessage, DescMethod, DescService } from '@bufbuild/protobuf';

/**
 * NATS subjects are derived from the protobuf descriptors, so a contract has
 * exactly one source: `ratesmith.rules.v1.SaveRulesetFilters` is the method
 * SaveRulesetFilters of package ratesmith.rules.v1.
 *
 * `prefix` lets several environments (or parallel test runs) share one NATS
 * server without hearing each other; it is empty in a normal deployment.
 */
export function packageOf(desc: DescService | DescMessage): string {
  return desc.file.proto.package;
}

export function rpcGroup(service: DescService, prefix = ''): string {
  return `${prefix}${packageOf(service)}`;
}

export function rpcSubject(method: DescMethod, prefix = ''): string {
  return `${rpcGroup(method.parent, prefix)}.${method.name}`;
}

/** Events are published on `<package>.events.<MessageName>`. */
export function eventSubject(event: DescMessage, prefix = ''): string {
  return `${prefix}${packageOf(event)}.events.${event.name}`;
}
