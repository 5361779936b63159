import { ConfigError } from './config';
import type { Logger } from './logger';

type Step = { name: string; run: () => Promise<unknown> | unknown };

/**
 * Graceful shutdown. Steps are registered in start-up order and run in
 * reverse on SIGTERM or SIGINT, each awaited, the whole bounded by a timeout
 * so a stuck dependency cannot keep a pod in Terminating.
 */
export class Lifecycle {
  private readonly steps: Step[] = [];
  private stopping: Promise<void> | undefined;
  /** False from the moment shutdown starts: readiness reports 503 at once. */
  accepting = true;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs = 10_000,
  ) {}

  onStop(name: string, run: Step['run']): void {
    this.steps.push({ name, run });
  }

  /** Stops every registered part, newest first. Safe to call more than once. */
  stop(reason = 'stop'): Promise<void> {
    this.stopping ??= this.runSteps(reason);
    return this.stopping;
  }

  /**
   * Exits the process when a signal arrives. Also makes sure nothing fails
   * silently: a stray rejected promise is logged (the process keeps serving),
   * an uncaught exception is logged and ends the process for the orchestrator
   * to restart.
   */
  trapSignals(): void {
    process.on('unhandledRejection', (reason) => {
      this.logger.error({ err: reason }, 'unhandled promise rejection');
    });
    process.on('uncaughtException', (err) => {
      this.logger.fatal({ err }, 'uncaught exception; exiting');
      process.exit(1);
    });
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        const timer = setTimeout(() => {
          this.logger.error({ timeout_ms: this.timeoutMs }, 'shutdown timed out; exiting');
          process.exit(1);
        }, this.timeoutMs);
        timer.unref();
        this.stop(signal).then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
    }
  }

  private async runSteps(reason: string): Promise<void> {
    this.accepting = false;
    this.logger.info({ reason }, 'shutting down');
    let failed = false;
    for (const step of [...this.steps].reverse()) {
      try {
        await step.run();
      } catch (err) {
        failed = true;
        this.logger.error({ err, step: step.name }, 'shutdown step failed');
      }
    }
    this.logger.info('stopped');
    if (failed) throw new Error('shutdown incomplete');
  }
}

/**
 * Runs a service's main. A configuration error prints one line and exits 1;
 * any other start-up failure is printed with its stack and exits 1.
 */
export function runMain(service: string, main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError) process.stderr.write(`${service}: ${err.message}\n`);
    else
      process.stderr.write(
        `${service}: start-up failed: ${(err as Error)?.stack ?? String(err)}\n`,
      );
    process.exit(1);
  });
}

/**
 * Retries a start-up step that depends on another server (a JetStream bucket,
 * say) with growing pauses, so a dependency that blinks during start-up does
 * not crash the process. Gives up after `timeoutMs`.
 */
export async function retryStartup<T>(
  what: string,
  step: () => Promise<T>,
  logger: Logger,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      const waitMs = Math.min(250 * 2 ** attempt, 5000);
      logger.warn(
        { err: (err as Error).message, attempt, wait_ms: waitMs },
        `${what} failed; retrying`,
      );
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}
