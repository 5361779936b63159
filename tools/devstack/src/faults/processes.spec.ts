import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { freeze, isFrozen, thaw } from './processes';

const threadStates = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  });

it('freeze returns once every thread of the process is stopped; thaw lets it run again', async () => {
  // A Node process: several threads (V8's and libuv's), one of them busy.
  const child = spawn(process.execPath, [
    '-e',
    'setInterval(() => { for (let i = 0; i < 1e6; i++); }, 1)',
  ]);
  try {
    await new Promise((r) => setTimeout(r, 300));
    const pid = child.pid!;
    expect(threadStates(pid).length).toBeGreaterThan(1);
    freeze(pid);
    expect(isFrozen(pid)).toBe(true);
    expect(new Set(threadStates(pid))).toEqual(new Set(['T']));
    thaw(pid);
    await new Promise((r) => setTimeout(r, 100));
    expect(isFrozen(pid)).toBe(false);
  } finally {
    child.kill('SIGKILL');
  }
});
