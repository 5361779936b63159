import { authV1, catalogV1, rateEngineV1, rulesV1 } from '@ratesmith/contracts';
import { RpcClient, type NatsConnection } from '@ratesmith/kit';
import type { GatewayConfig } from './config';

/** The RPC clients of every service the gateway calls, with its time limit and subject prefix. */
export function gatewayClients(
  nc: NatsConnection,
  config: Pick<GatewayConfig, 'NATS_REQUEST_TIMEOUT_MS' | 'NATS_SUBJECT_PREFIX'>,
) {
  const options = (displayName: string) => ({
    timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    displayName,
  });
  return {
    rules: new RpcClient(nc, rulesV1.RulesService, options('rules')),
    auth: new RpcClient(nc, authV1.AuthService, options('auth')),
    catalog: new RpcClient(nc, catalogV1.CatalogService, options('catalog')),
    rateEngine: new RpcClient(nc, rateEngineV1.RateEngineService, options('rate engine')),
  };
}
