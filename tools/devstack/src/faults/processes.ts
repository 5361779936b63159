import { readdirSync, readFileSync } from 'node:fs';

/**
 * Freezing a process (SIGSTOP) keeps its sockets open but answers nothing:
 * peers see silence, not a reset, which is what a stalled machine or a long
 * garbage-collection pause looks like. Thawing (SIGCONT) lets it go on.
 */
export function freeze(pid: number): void {
  process.kill(pid, 'SIGSTOP');
  // The signal is delivered, not obeyed: on a busy machine a thread of the process can
  // still answer a request or two. Returns once every thread is stopped (at most 2 s).
  const until = Date.now() + 2000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!everyThreadStopped(pid) && Date.now() < until) Atomics.wait(pause, 0, 0, 1);
}

/** Whether every thread of the process is stopped (state T in /proc/<pid>/task/<tid>/stat). */
function everyThreadStopped(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).every((tid) =>
      /^[Tt]$/.test(statFields(`${pid}/task/${tid}`)[0] ?? ''),
    );
  } catch {
    return true; // gone: nothing left to answer
  }
}

export function thaw(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Already gone: nothing to thaw.
  }
}

/** Whether the process is stopped by a signal (state T in /proc). */
export function isFrozen(pid: number): boolean {
  try {
    return /^T$/.test(statFields(pid)[0] ?? '');
  } catch {
    return false;
  }
}

/** The fields of /proc/<pid>/stat (or <pid>/task/<tid>/stat) after the command name: state, parent pid, ... */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * The pid of a direct child of `parentPid` whose command line contains
 * `fragment` (e.g. `services/rules/dist/main.js`), or undefined. How a test
 * finds a service that another process (the devstack start script, a
 * replica wrapper) spawned, to freeze it.
 */
export function childPid(parentPid: number, fragment: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      if (Number(statFields(pid)[1]) !== parentPid) continue;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes(fragment)) return pid;
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

/** Like childPid, but fails with a clear message when there is none. */
export function requireChildPid(parentPid: number, fragment: string): number {
  const pid = childPid(parentPid, fragment);
  if (pid === undefined) throw new Error(`no child of ${parentPid} runs ${fragment}`);
  return pid;
}

/**
 * Freezes `pid` for the duration of `during`, thawing it afterwards even
 * when `during` throws, so no test leaves a stopped process behind.
 */
export async function whileFrozen<T>(pid: number, during: () => Promise<T>): Promise<T> {
  freeze(pid);
  try {
    return await during();
  } finally {
    thaw(pid);
  }
}
