import { readFileSync } from 'node:fs';

/**
 * `node -r tsx/cjs bench/profile/summary.ts <file.cpuprofile> [top]`: self and total time by
 * function (name, file basename and line), the largest first, as shares of the profile.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 40);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (n: ProfileNode) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const base = url.split('/').slice(-2).join('/');
  return `${functionName || '(anonymous)'} ${base}:${lineNumber + 1}`;
};

/** `SKIP_MS`: leave out the first milliseconds (start-up, warm-up). */
const skipUs = Number(process.env.SKIP_MS ?? 0) * 1000;
let elapsed = 0;
const counted = profile.samples.map((_, i) => (elapsed += profile.timeDeltas[i] ?? 0) > skipUs);

const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  if (!counted[i]) return;
  const dt = profile.timeDeltas[i] ?? 0;
  all += dt;
  const node = byId.get(id)!;
  self.set(label(node), (self.get(label(node)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at)!);
    if (seen.has(l)) continue;
    seen.add(l);
    total.set(l, (total.get(l) ?? 0) + dt);
  }
});

const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${(all / 1000).toFixed(0)} ms)`);
  for (const [l, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * t) / all).toFixed(1).padStart(5)}%  ${l}`);
};
print('self', self);
if (process.env.TOTAL) print('total', total);

/** `CALLERS=name`: the total time of functions matching `name`, by caller (two levels up). */
const wanted = process.env.CALLERS;
if (wanted) {
  const callers = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (!counted[i]) return;
    const dt = profile.timeDeltas[i] ?? 0;
    const chain: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      chain.push(label(byId.get(at)!));
    const hit = chain.findIndex((l) => l.startsWith(`${wanted} `));
    if (hit === -1) return;
    const key = chain.slice(hit + 1, hit + 4).join(' < ');
    callers.set(key, (callers.get(key) ?? 0) + dt);
  });
  print(`callers of ${wanted}`, callers);
}

/** `UNDER=name`: self time of the functions that run inside functions matching `name`. */
const under = process.env.UNDER;
if (under) {
  const inside = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (!counted[i]) return;
    const dt = profile.timeDeltas[i] ?? 0;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (label(byId.get(at)!).startsWith(`${under} `)) {
        const l = label(byId.get(id)!);
        inside.set(l, (inside.get(l) ?? 0) + dt);
        return;
      }
    }
  });
  print(`self time inside ${under}`, inside);
}
