import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FRAMEWORKS } from './agent-loops';
import type { LoopVariant } from './agent-loop-variant';
import { formatNs, rowsAgainst, settings, type Measurements, type Row } from './harness';

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
  ['without', 'without otel-tool-errors, a process of its own'],
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

async function framework(name: string): Promise<Row[]> {
  // One sample a process: no spread within it, so the rows give the range over processes instead.
  const samples: Measurements = new Map(VARIANTS.map(([, label]) => [label, []]));
  for (let round = 0; round < settings.rounds; round++) {
    const order = [...VARIANTS.slice(round % VARIANTS.length), ...VARIANTS.slice(0, round % VARIANTS.length)];
    for (const [variant, label] of order) {
      const nsPerOp = (await microsPerCall(name, variant)) * 1000;
      samples.get(label)!.push({ nsPerOp, rme: 0, p99NsPerOp: nsPerOp });
    }
  }
  const caseName = `9b agent loop: ${FRAMEWORKS[name]!.label}, one process per variant (per tool call)`;
  const variants = VARIANTS.map(([, label]) => ({ name: label }));
  return rowsAgainst(caseName, samples, VARIANTS[0]![1], variants).map((row, i) => {
    const values = samples.get(VARIANTS[i]![1])!.map((sample) => sample.nsPerOp);
    return {
      ...row,
      spread: `${formatNs(Math.min(...values))}–${formatNs(Math.max(...values))} over ${values.length} processes`,
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
