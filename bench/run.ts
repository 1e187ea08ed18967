import { execSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { settings, type Row } from './harness';
import { buildBundle } from './subject';

/**
 * `npm run bench [-- case…]`: runs every case (or those named) and prints one Markdown table.
 * Each case file exports `run(only?): Promise<Row[]>`; `case:part` passes `part` as `only`
 * (`peers:mcp`).
 */

const CASES: Record<string, () => Promise<{ run(only?: string): Promise<Row[]> }>> = {
  'processor-non-tool': () => import('./processor-non-tool'),
  'processor-failed-tool': () => import('./processor-failed-tool'),
  'processor-revision': () => import('./processor-revision'),
  wrapper: () => import('./wrapper'),
  'wrapper-revision': () => import('./wrapper-revision'),
  peers: () => import('./peers'),
  'ai-sdk-step': () => import('./ai-sdk-step'),
  'agent-loops': () => import('./agent-loops'),
  'agent-loops-processes': () => import('./agent-loops-processes'),
  classifier: () => import('./classifier'),
  redactor: () => import('./redactor'),
  scale: () => import('./scale'),
  'recursion-depth': () => import('./recursion-depth'),
  hostile: () => import('./hostile'),
  'export-failure': () => import('./export-failure'),
  'start-mechanisms': () => import('./start-mechanisms'),
};

/**
 * Cases not in the default run: those that need their part named (`wrapper-revision:<git
 * revision>`, `processor-revision:<git revision>`), and the long ones (`agent-loops-processes`, a
 * few minutes a framework; `start-mechanisms`, about 20 minutes a Node line).
 */
const NAMED_ONLY = new Set([
  'wrapper-revision',
  'processor-revision',
  'agent-loops-processes',
  'start-mechanisms',
]);

function machine(): string {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  let nproc = String(cpus().length);
  try {
    nproc = execSync('nproc').toString().trim();
  } catch {
    // os.cpus() is the fallback
  }
  return `node ${process.version}, ${nproc} cores (nproc), ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${load}`;
}

function table(rows: Row[]): string {
  const header = [
    'Case',
    'Variant',
    'Time/op or value',
    'Spread',
    'Ratio (median [min–max])',
    'Added/op',
    'Target',
    'Result',
  ];
  const lines = [header, header.map(() => '---')];
  for (const r of rows) {
    lines.push([r.case, r.variant, r.value, r.spread, r.ratio, r.added, r.target, r.verdict]);
  }
  return lines.map((cells) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`).join('\n');
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).map((arg) => {
    const [name, only] = arg.split(':') as [string, string | undefined];
    return { name, only };
  });
  const unknown = wanted.filter(({ name }) => !(name in CASES)).map(({ name }) => name);
  if (unknown.length > 0) {
    throw new Error(`unknown case(s) ${unknown.join(', ')}; known: ${Object.keys(CASES).join(', ')}`);
  }
  const selected =
    wanted.length > 0
      ? wanted
      : Object.keys(CASES)
          .filter((name) => !NAMED_ONLY.has(name))
          .map((name) => ({ name, only: undefined }));
  const started = Date.now();
  console.log(`Before: ${machine()}`);
  console.log(
    `Rounds ${settings.rounds} × ${settings.timeMs} ms per variant, ${settings.clock} clock${process.env.BENCH_QUICK ? ' (BENCH_QUICK)' : ''}\n`,
  );
  await buildBundle();
  const rows: Row[] = [];
  for (const { name, only } of selected) {
    const caseStart = Date.now();
    const module = await CASES[name]!();
    const caseRows = await module.run(only);
    rows.push(...caseRows);
    console.error(`${name}${only ? `:${only}` : ''}: ${((Date.now() - caseStart) / 1000).toFixed(1)} s`);
  }
  console.log(table(rows));
  console.log(`\nAfter: ${machine()}; total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const missed = rows.filter((r) => r.verdict.startsWith('MISSED'));
  if (missed.length > 0)
    console.log(`Missed targets: ${missed.map((r) => `${r.case} / ${r.variant}`).join('; ')}`);
}

main().then(
  // Open handles (instrumentations, servers in children) must not keep the run alive.
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
