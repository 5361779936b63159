import { readFileSync } from 'node:fs';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from './logger';
import { nkeyAuthenticator, nkeyUserFromSeed } from './nkey';

export type { NatsConnection };

/** The inbox of a service's requests: replies to one service are nobody else's to read. */
export function inboxPrefix(service: string): string {
  return `_INBOX_${service.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const connected = new WeakMap<NatsConnection, boolean>();

/** Whether the connection is up right now (readiness); false while reconnecting. */
export function natsReady(nc: NatsConnection): boolean {
  return !nc.isClosed() && connected.get(nc) === true;
}

/**
 * Connects with settings that keep calls bounded and never give up: the
 * client's default closes the connection for good after about 20 s of
 * reconnect attempts (research/reliability.md, P1), so attempts are unlimited
 * and every status change is logged.
 */
export async function connectNats(options: {
  url: string;
  name: string;
  logger: Logger;
  /** Wait for the server at start-up instead of failing at once. */
  waitOnFirstConnect?: boolean;
  /** The service's NATS user: its nkey seed (`SU...`), from a Secret. */
  nkeySeed?: string;
  /** A PEM file of the CA that signed the NATS servers' certificates: TLS is then required. */
  tlsCaFile?: string;
}): Promise<NatsConnection> {
  const { url, name, logger } = options;
  const nc = await connect({
    servers: url.split(','),
    name,
    // Replies to this service come here; its NATS user may read nothing else's.
    inboxPrefix: inboxPrefix(name),
    ...(options.nkeySeed
      ? { authenticator: nkeyAuthenticator(nkeyUserFromSeed(options.nkeySeed)) }
      : {}),
    ...(options.tlsCaFile ? { tls: { ca: readFileSync(options.tlsCaFile, 'utf8') } } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    reconnectJitter: 250,
    waitOnFirstConnect: options.waitOnFirstConnect ?? true,
    pingInterval: 20_000,
    maxPingOut: 3,
    timeout: 5000,
  });
  logger.info({ server: nc.getServer() }, 'connected to NATS');
  connected.set(nc, true);
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'ping') continue;
      if (status.type === 'disconnect') connected.set(nc, false);
      if (status.type === 'reconnect') connected.set(nc, true);
      const level = status.type === 'disconnect' || status.type === 'error' ? 'warn' : 'info';
      logger[level]({ nats_status: status.type }, `NATS ${status.type}`);
    }
  })();
  return nc;
}
