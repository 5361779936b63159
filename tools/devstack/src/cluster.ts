import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BusTls, BusUsers } from './bus';
import { freePort, startNatsServer, type RunningServer } from './servers';
import { timed } from './stack-timings';

/**
 * A NATS cluster on this machine: nodes on loopback ports, routes between
 * all of them, JetStream on each with its own store, and the authorization
 * and TLS of the single server (tools/devstack/src/bus.ts). Each node can be
 * killed, frozen and restarted on the same ports and store, which is what
 * the failure runs (tools/devstack/src/cluster-run.ts) do to it.
 */
export interface NatsClusterNode {
  /** Its `server_name`, as JetStream reports leaders and replicas. */
  readonly name: string;
  readonly port: number;
  readonly routePort: number;
  readonly storeDir: string;
  readonly url: string;
  /** Whether its process is up (frozen counts as up). */
  running(): boolean;
  /** SIGKILL: no goodbye to clients or peers, as a crashed machine. */
  kill(): Promise<void>;
  /** SIGSTOP: the process holds its sockets but answers nothing, as a stalled machine. */
  freeze(): void;
  /** SIGCONT after freeze. */
  thaw(): void;
  /** Starts it again on the same ports and store. */
  restart(): Promise<void>;
}

export interface NatsCluster {
  /** Every node's URL, comma-separated: NATS_URL of a service. */
  url: string;
  nodes: NatsClusterNode[];
  node(name: string): NatsClusterNode;
  /** Stops every node (SIGCONT first, in case one is frozen). */
  stop(): Promise<void>;
}

export const CLUSTER_NAME = 'ratesmith';

async function startNatsClusterUntimed(options: {
  /** Three unless told: the smallest that keeps a majority with one node down. */
  nodes?: number;
  /** Where each node keeps its store (`<dir>/<name>`) and log (`<dir>/<name>.log`). */
  dir: string;
  users?: BusUsers;
  tls?: BusTls;
}): Promise<NatsCluster> {
  const count = options.nodes ?? 3;
  const ports = await Promise.all(
    Array.from({ length: count }, async () => ({
      client: await freePort(),
      route: await freePort(),
    })),
  );
  const nodes = ports.map((port, i) => {
    const name = `n${i + 1}`;
    const storeDir = join(options.dir, name);
    mkdirSync(storeDir, { recursive: true });
    let server: RunningServer | undefined;
    const start = async () => {
      server = await startNatsServer({
        port: port.client,
        storeDir,
        users: options.users,
        tls: options.tls,
        serverName: name,
        cluster: {
          name: CLUSTER_NAME,
          port: port.route,
          routes: ports.filter((p) => p !== port).map((p) => p.route),
        },
        logFile: join(options.dir, `${name}.log`),
      });
    };
    const signal = (sig: NodeJS.Signals) => {
      if (node.running()) server!.process.kill(sig);
    };
    const node: NatsClusterNode & { start(): Promise<void>; stop(): Promise<void> } = {
      name,
      port: port.client,
      routePort: port.route,
      storeDir,
      url: `${options.tls ? 'tls' : 'nats'}://127.0.0.1:${port.client}`,
      running: () =>
        !!server && server.process.exitCode === null && server.process.signalCode === null,
      kill: async () => {
        if (!node.running()) return;
        const exited = new Promise((done) => server!.process.once('exit', done));
        signal('SIGKILL');
        await exited;
      },
      freeze: () => signal('SIGSTOP'),
      thaw: () => signal('SIGCONT'),
      restart: async () => {
        if (node.running()) throw new Error(`${name} is still running`);
        await start();
      },
      start,
      stop: async () => {
        signal('SIGCONT');
        await server?.stop();
      },
    };
    return node;
  });
  try {
    await Promise.all(nodes.map((n) => n.start()));
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  }
  return {
    url: nodes.map((n) => n.url).join(','),
    nodes,
    node: (name) => {
      const found = nodes.find((n) => n.name === name);
      if (!found) throw new Error(`no node ${name} in the cluster`);
      return found;
    },
    stop: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
  };
}

/** startNatsCluster, its duration recorded for the slowest-files table (stack-timings.ts). */
export const startNatsCluster = timed('NATS cluster', startNatsClusterUntimed);
