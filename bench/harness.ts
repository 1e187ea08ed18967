import { Bench } from 'tinybench';

/**
 * Side-by-side comparison on a noisy machine: every variant of a case runs in the same process, in
 * rounds, in a rotated order, and each round yields one ratio against the baseline measured in that
 * same round. The table reports the median ratio over rounds and its range, so drift between rounds
 * (other processes, GC, CPU frequency) cancels instead of landing on one variant.
 */

export interface Variant {
  name: string;
  /** One sample: runs `opsPerCall` operations, so the timer's own cost is amortised. */
  fn: () => unknown;
  /** Largest ratio against the baseline that meets the target, if the variant has one. */
  target?: number;
  /**
   * Switches the code under test to this variant (a patch on or off), before its warm-up and
   * before its timed samples, outside the timing.
   */
  setUp?: () => void;
}

export interface Comparison {
  case: string;
  /** Name of the variant the others are divided by. */
  baseline: string;
  variants: Variant[];
  /** Operations each `fn` call performs (all variants alike). */
  opsPerCall: number;
}

export interface Row {
  case: string;
  variant: string;
  /** Time per operation, or another measured value (heap, count), already formatted. */
  value: string;
  /** Spread of `value`: tinybench's ±rme (95%) and p99 per operation, or a note. */
  spread: string;
  /** Median ratio over rounds with its [min–max], or '' for the baseline and non-ratio rows. */
  ratio: string;
  /** Added time per operation over the baseline (median over rounds). */
  added: string;
  target: string;
  /** `met` or `MISSED` against `target`, or the significance verdicts of a peer comparison. */
  verdict: string;
  /** The median time per operation behind `value`, for callers that derive more from it. */
  nsPerOp?: number;
  /** The median ratio behind `ratio`. */
  ratioValue?: number;
}

export interface BenchSettings {
  rounds: number;
  /** Time budget per variant per round (ms). */
  timeMs: number;
  warmupMs: number;
  /**
   * `cpu` (default): this process's CPU time (user + system, all its threads), so time spent
   * descheduled while other processes run is not counted. `wall`: performance.now(), for a quiet
   * machine (`BENCH_CLOCK=wall`).
   */
  clock: 'wall' | 'cpu';
}

/**
 * `BENCH_QUICK=1` for a fast, rough pass while developing; the documented numbers use the default.
 * `BENCH_ROUNDS=n` takes more rounds, for differences of a few percent on a busy machine.
 */
export const settings: BenchSettings = {
  ...(process.env.BENCH_QUICK
    ? { rounds: 3, timeMs: 60, warmupMs: 30 }
    : { rounds: Number(process.env.BENCH_ROUNDS ?? 7), timeMs: 150, warmupMs: 100 }),
  clock: process.env.BENCH_CLOCK === 'wall' ? 'wall' : 'cpu',
};

/** Milliseconds of CPU time used by this process (microsecond resolution, about 1 µs a call). */
function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export interface RoundSample {
  nsPerOp: number;
  rme: number;
  p99NsPerOp: number;
}

/** Per-variant samples, one per round, in round order (so round i of two variants can be paired). */
export type Measurements = Map<string, RoundSample[]>;

/** Runs every variant in `rounds` rounds, rotating the order each round. */
export async function measure(
  name: string,
  variants: Variant[],
  opsPerCall: number,
  opts: Partial<BenchSettings> = {},
): Promise<Measurements> {
  const { rounds } = { ...settings, ...opts };
  const samples: Measurements = new Map(variants.map((v) => [v.name, []]));
  for (let round = 0; round < rounds; round++) {
    const measured = await measureRound(name, variants, opsPerCall, round, opts);
    for (const [variant, sample] of measured) samples.get(variant)!.push(sample);
  }
  return samples;
}

/**
 * Round `round` of `measure`: every variant once, in an order rotated by `round`, with a longer
 * warm-up in round 0. For callers that interleave rounds of several processes.
 */
export async function measureRound(
  name: string,
  variants: Variant[],
  opsPerCall: number,
  round: number,
  opts: Partial<BenchSettings> = {},
): Promise<Map<string, RoundSample>> {
  const { timeMs, warmupMs, clock } = { ...settings, ...opts };
  const bench = new Bench({
    time: timeMs,
    warmup: true,
    warmupTime: round === 0 ? warmupMs * 3 : warmupMs,
    throws: true,
    iterations: 16,
    ...(clock === 'cpu' ? { now: cpuNow } : {}),
  });
  // Rotate the order so no variant always runs first (cold) or last (after the others' garbage).
  for (let i = 0; i < variants.length; i++) {
    const variant = variants[(i + round) % variants.length]!;
    // tinybench runs beforeAll before a task's warm-up and again before its samples.
    bench.add(
      variant.name,
      endingOnTheEventLoop(variant.fn),
      variant.setUp ? { beforeAll: variant.setUp } : {},
    );
  }
  await bench.run();
  const samples = new Map<string, RoundSample>();
  for (const task of bench.tasks) {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${name}/${task.name}: ${result.state}`);
    const { latency } = result;
    samples.set(task.name, {
      nsPerOp: (latency.mean * 1e6) / opsPerCall,
      rme: latency.rme,
      p99NsPerOp: (latency.p99 * 1e6) / opsPerCall,
    });
  }
  return samples;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * An async sample ends with a turn of the event loop, inside its timing. tinybench awaits samples
 * back to back without leaving the microtask queue, and Node runs the async_hooks destroy
 * callbacks of collected promises from the event loop: without the turn, what a variant's promises
 * leave for later (with promise hooks on, about 1.8 KB a call) would pile up for the whole round,
 * be paid by whichever sample follows, and a long loop ran out of memory. The turn costs every
 * variant of a round the same few µs per sample. Sync samples are left sync.
 */
function endingOnTheEventLoop(fn: Variant['fn']): Variant['fn'] {
  if (fn.constructor.name !== 'AsyncFunction') return fn;
  return async () => {
    await fn();
    await nextTurn();
  };
}

/** A variant's ratio to the baseline in each round, in round order. */
export function roundRatios(samples: Measurements, baseline: string, variant: string): number[] {
  const base = samples.get(baseline)!;
  return samples.get(variant)!.map((s, i) => s.nsPerOp / base[i]!.nsPerOp);
}

/**
 * One row per variant (in `variants` order): its median time, and its ratio to `baseline` paired
 * round by round. `variants` may be a subset of what was measured.
 */
export function rowsAgainst(
  caseName: string,
  samples: Measurements,
  baseline: string,
  variants: Array<Pick<Variant, 'name' | 'target'>>,
): Row[] {
  const base = samples.get(baseline);
  if (!base) throw new Error(`${caseName}: baseline ${baseline} was not measured`);
  return variants.map((variant) => {
    const own = samples.get(variant.name);
    if (!own) throw new Error(`${caseName}: ${variant.name} was not measured`);
    const ratios = own.map((s, i) => s.nsPerOp / base[i]!.nsPerOp);
    const added = own.map((s, i) => s.nsPerOp - base[i]!.nsPerOp);
    const isBase = variant.name === baseline;
    const ratio = median(ratios);
    const nsPerOp = median(own.map((s) => s.nsPerOp));
    return {
      case: caseName,
      variant: isBase ? `${variant.name} (baseline)` : variant.name,
      value: formatNs(nsPerOp),
      spread: `±${median(own.map((s) => s.rme)).toFixed(1)}% p99 ${formatNs(median(own.map((s) => s.p99NsPerOp)))}`,
      ratio: isBase
        ? '1'
        : `${ratio.toFixed(2)}× [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`,
      added: isBase ? '' : formatNs(median(added), true),
      target: variant.target === undefined ? '' : `≤ ${variant.target.toFixed(2)}×`,
      verdict: variant.target === undefined ? '' : ratio <= variant.target ? 'met' : 'MISSED',
      nsPerOp,
      ratioValue: ratio,
    };
  });
}

/** `measure` then `rowsAgainst` for all variants. */
export async function compare(comparison: Comparison, opts: Partial<BenchSettings> = {}): Promise<Row[]> {
  const samples = await measure(comparison.case, comparison.variants, comparison.opsPerCall, opts);
  return rowsAgainst(comparison.case, samples, comparison.baseline, comparison.variants);
}

/** A row for a value that is not a time comparison (heap bytes, counts, a peer's ratio from a child). */
export function valueRow(fields: Partial<Row> & Pick<Row, 'case' | 'variant' | 'value'>): Row {
  return { spread: '', ratio: '', added: '', target: '', verdict: '', ...fields };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function formatNs(ns: number, signed = false): string {
  const sign = signed && ns > 0 ? '+' : '';
  const abs = Math.abs(ns);
  if (abs >= 1e6) return `${sign}${(ns / 1e6).toFixed(2)} ms`;
  if (abs >= 1e4) return `${sign}${(ns / 1e3).toFixed(1)} µs`;
  if (abs >= 1e3) return `${sign}${(ns / 1e3).toFixed(2)} µs`;
  return `${sign}${ns.toFixed(0)} ns`;
}

export function formatBytes(bytes: number, signed = false): string {
  const sign = signed && bytes > 0 ? '+' : '';
  if (Math.abs(bytes) >= 1024 * 1024) return `${sign}${(bytes / 1024 / 1024).toFixed(2)} MB`;
  return `${sign}${(bytes / 1024).toFixed(1)} KB`;
}

/** Forces a full collection; needs `node --expose-gc`. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');
  gc();
  gc();
}

export function heapUsedAfterGc(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
