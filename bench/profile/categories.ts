import { readFileSync } from 'node:fs';

/**
 * `node -r tsx/cjs bench/profile/categories.ts <a.cpuprofile> [<b.cpuprofile>]`: self time by
 * where it is spent, as a share of the profile: this package (by function), OpenTelemetry's SDK,
 * the context manager and async_hooks, the framework, GC, the rest. With two profiles (without the
 * package, then with it), prints both shares side by side, to read what the package added.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function category({ functionName, url }: ProfileNode['callFrame']): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)' || functionName === '(idle)') return functionName;
  if (url.includes('.cache/bench/index.cjs')) return `ours: ${functionName || '(anonymous)'}`;
  if (/async_hooks|context-async-hooks|AsyncLocalStorage|async_context_frame/.test(url))
    return 'context (async_hooks)';
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg?.startsWith('@opentelemetry/')) return `otel: ${pkg.slice('@opentelemetry/'.length)}`;
  if (pkg) return `framework and deps: ${pkg}`;
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  return url ? `other: ${url.split('/').slice(-1)[0]}` : `native: ${functionName}`;
}

function shares(file: string): Map<string, number> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const key = category(byId.get(id)!.callFrame);
    totals.set(key, (totals.get(key) ?? 0) + dt);
    all += dt;
  });
  for (const [key, value] of totals) totals.set(key, value / all);
  return totals;
}

const files = process.argv.slice(2);
const tables = files.map(shares);
const keys = [...new Set(tables.flatMap((table) => [...table.keys()]))].sort(
  (a, b) => (tables.at(-1)!.get(b) ?? 0) - (tables.at(-1)!.get(a) ?? 0),
);
const percent = (value: number | undefined) => `${((value ?? 0) * 100).toFixed(1)}%`;
console.log(`| where | ${files.map((file) => file.split('/').slice(-2).join('/')).join(' | ')} |`);
console.log(`|---|${files.map(() => '---:').join('|')}|`);
for (const key of keys.slice(0, Number(process.env.TOP ?? 40))) {
  console.log(`| ${key} | ${tables.map((table) => percent(table.get(key))).join(' | ')} |`);
}
