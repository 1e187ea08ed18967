import { readFileSync } from 'node:fs';

/**
 * `node -r tsx/cjs bench/profile/categories.ts <a.cpuprofile>[:calls] [<b.cpuprofile>[:calls]]`:
 * self time by where it is spent: this package (by function, and all of it), OpenTelemetry's SDK,
 * the context manager and async_hooks, the framework, GC, the rest; per call in µs when the number
 * of calls the profile covers is given (bench/profile/loop.ts prints it), else as a share of the
 * profile. With two profiles (without the package, then with it), prints them side by side and the
 * difference. The inspector's own work of stopping the profile is left out.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function category({ functionName, url }: ProfileNode['callFrame']): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)' || functionName === '(idle)') return functionName;
  // The bundle as it ships, or another revision's loaded through BENCH_BUNDLE (.cache/bench-base-<rev>/).
  if (/\.cache\/bench[^/]*\/index\.cjs$/.test(url)) return `ours: ${functionName || '(anonymous)'}`;
  if (/async_hooks|context-async-hooks|AsyncLocalStorage|async_context_frame/.test(url))
    return 'context (async_hooks)';
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg?.startsWith('@opentelemetry/')) return `otel: ${pkg.slice('@opentelemetry/'.length)}`;
  if (pkg) return `framework and deps: ${pkg}`;
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  return url ? `other: ${url.split('/').slice(-1)[0]}` : `native: ${functionName}`;
}

function shares(arg: string): Map<string, number> {
  const [file, calls] = arg.split(':') as [string, string | undefined];
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inspector = new Set<number>();
  for (const node of profile.nodes) {
    if (node.callFrame.url === 'node:inspector') {
      const stack = [node];
      while (stack.length > 0) {
        const next = stack.pop()!;
        inspector.add(next.id);
        for (const child of next.children ?? []) stack.push(byId.get(child)!);
      }
    }
  }
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    if (inspector.has(id)) return;
    const dt = profile.timeDeltas[i] ?? 0;
    const key = category(byId.get(id)!.callFrame);
    totals.set(key, (totals.get(key) ?? 0) + dt);
    all += dt;
  });
  // Sample time is in µs: per call, or a share of the profile.
  const divisor = calls ? Number(calls) : all;
  let ours = 0;
  for (const [key, value] of totals) {
    totals.set(key, value / divisor);
    if (key.startsWith('ours: ')) ours += value;
  }
  totals.set('total', all / divisor);
  totals.set('ours, all', ours / divisor);
  return totals;
}

const files = process.argv.slice(2);
const perCall = files.every((file) => file.includes(':'));
const tables = files.map(shares);
const keys = [...new Set(tables.flatMap((table) => [...table.keys()]))].sort(
  (a, b) => (tables.at(-1)!.get(b) ?? 0) - (tables.at(-1)!.get(a) ?? 0),
);
// Rows by the last profile's value, the total first.
const format = (value: number | undefined) =>
  perCall ? `${(value ?? 0).toFixed(2)} µs` : `${((value ?? 0) * 100).toFixed(1)}%`;
const difference = tables.length === 2;
console.log(
  `| where | ${files.map((file) => file.split('/').slice(-1)[0]).join(' | ')}${difference ? ' | difference' : ''} |`,
);
console.log(`|---|${files.map(() => '---:').join('|')}${difference ? '|---:' : ''}|`);
for (const key of keys.slice(0, Number(process.env.TOP ?? 40))) {
  const cells = tables.map((table) => format(table.get(key)));
  if (difference) cells.push(format((tables[1]!.get(key) ?? 0) - (tables[0]!.get(key) ?? 0)));
  console.log(`| ${key} | ${cells.join(' | ')} |`);
}
