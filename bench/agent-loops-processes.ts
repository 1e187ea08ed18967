import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FRAMEWORKS } from './agent-loops';
import type { LoopVariant } from './agent-loop-variant';
import { settings, type Row } from './harness';

const execFileAsync = promisify(execFile);

/**
 * Case 9 again, with each variant in a process of its own, as a user runs one set-up: in one
 * process (bench/agent-loops.ts) the variants share the JIT's feedback (the framework's call sites
 * see the wrapped and the plain tool alike) and the heap (one variant's garbage collected in
 * another's round), which brings them closer together. Each round starts one process per variant
 * in a rotated order (bench/agent-loop-process.ts); a row gives the median CPU time per tool call,
 * and the median over rounds of the ratio to `without` and of the time added.
 * `npm run bench -- agent-loops-processes[:<framework>]`, not in the default run (about 3 minutes
 * a framework at 7 rounds).
 */
const VARIANTS: [LoopVariant, string][] = [
  ['without', 'without otel-tool-errors, a process of its own (baseline)'],
  ['span+metric', 'floor: a hand-written span + a duration histogram record per call, a process of its own'],
  ['register', 'with otel-tool-errors as the register sets it up, a process of its own'],
];

/** The loops that have a floor: the ones cheap enough for the package's cost to show. */
const WITH_FLOORS = ['ai-sdk-v6', 'ai-sdk-v7', 'langgraph', 'openai-agents'];

async function microsPerCall(framework: string, variant: LoopVariant): Promise<number> {
  const { stdout } = await execFileAsync(process.execPath, [
    ...process.execArgv,
    join(__dirname, 'agent-loop-process.ts'),
    framework,
    variant,
  ]);
  const { calls, cpuMicros } = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    calls: number;
    cpuMicros: number;
  };
  return cpuMicros / calls;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function framework(name: string): Promise<Row[]> {
  const samples = new Map<LoopVariant, number[]>(VARIANTS.map(([variant]) => [variant, []]));
  for (let round = 0; round < settings.rounds; round++) {
    const order = [...VARIANTS.slice(round % VARIANTS.length), ...VARIANTS.slice(0, round % VARIANTS.length)];
    for (const [variant] of order) samples.get(variant)!.push(await microsPerCall(name, variant));
  }
  const base = samples.get('without')!;
  const caseName = `9b agent loop: ${FRAMEWORKS[name]!.label}, one process per variant (per tool call)`;
  return VARIANTS.map(([variant, label]) => {
    const values = samples.get(variant)!;
    const ratios = values.map((value, i) => value / base[i]!);
    const added = values.map((value, i) => value - base[i]!);
    const isBase = variant === 'without';
    return {
      case: caseName,
      variant: label,
      value: `${median(values).toFixed(1)} µs`,
      spread: `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} µs over ${values.length} processes`,
      ratio: isBase
        ? '1'
        : `${median(ratios).toFixed(2)}× [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`,
      added: isBase ? '' : `${median(added) >= 0 ? '+' : ''}${median(added).toFixed(1)} µs`,
      target: '',
      verdict: '',
    };
  });
}

export async function run(only?: string): Promise<Row[]> {
  const names = only === undefined ? WITH_FLOORS : [only];
  const unknown = names.filter((name) => !WITH_FLOORS.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `agent-loops-processes: ${unknown.join(', ')} has no floor; known: ${WITH_FLOORS.join(', ')}`,
    );
  }
  const rows: Row[] = [];
  for (const name of names) rows.push(...(await framework(name)));
  return rows;
}
