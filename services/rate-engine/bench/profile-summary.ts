/**
 * Self time by frame of a V8 CPU profile (`node --cpu-prof`), as a share of
 * the process's busy time (idle excluded), for docs/performance.md.
 * Usage: node profile-summary.js <file.cpuprofile> [top=25] [since seconds=0] [names]
 * `since` skips the start-up (the engine loading its snapshots); `names`
 * (comma-separated function names) adds their inclusive time (with callees).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, sinceArg, namesArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top] [since seconds]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 25);
const sinceUs = Number(sinceArg ?? 0) * 1e6;

const frame = new Map(
  profile.nodes.map((n) => {
    const { functionName, url, lineNumber } = n.callFrame;
    const where = url
      ? `${url.replace(/^.*\/(node_modules|services|tools|proto)\//, '$1/')}:${lineNumber + 1}`
      : '';
    return [n.id, `${functionName || '(anonymous)'} ${where}`.trim()];
  }),
);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
const names = new Set((namesArg ?? '').split(',').filter(Boolean));
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
let elapsed = 0;
let busy = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  elapsed += delta;
  if (elapsed < sinceUs) return;
  const name = frame.get(id) ?? '?';
  if (name === '(idle)') return;
  busy += delta;
  self.set(name, (self.get(name) ?? 0) + delta);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const fn = byId.get(at)?.callFrame.functionName ?? '';
    if (names.has(fn) && !seen.has(fn)) {
      seen.add(fn);
      inclusive.set(fn, (inclusive.get(fn) ?? 0) + delta);
    }
  }
});
process.stdout.write(`busy ${(busy / 1e6).toFixed(2)} s of ${(elapsed / 1e6).toFixed(2)} s\n`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  process.stdout.write(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}\n`);
for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]))
  process.stdout.write(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name} (inclusive)\n`);
