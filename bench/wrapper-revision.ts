import { measure, roundRatios, rowsAgainst, valueRow, type Row, type Variant } from './harness';
import { compareRounds } from './mann-whitney';
import { loadPackage, loadRevision } from './subject';
import { dropProvider } from './tracing';
import { batch, bothTools, NAME, OPS, realAxios503, referenceVariants } from './wrapper';

/**
 * Case 3b, `npm run bench -- wrapper-revision:<git revision>`: case 3's tool through
 * `instrumentTool` as this checkout builds it and as `<revision>` built it, in one process, their
 * rounds interleaved with the bare tool's and the minimal wrapper's. A change to the wrapper is
 * read against its own past on the same machine at the same moment; the per-round ratios to the
 * minimal wrapper (steadier than the bare tool's few hundred nanoseconds) are compared with a
 * Mann-Whitney test: faster, slower or tied (p < 0.01).
 */

/** More, shorter rounds than the other cases: a difference of a microsecond needs them. */
const OPTIONS = process.env.BENCH_QUICK ? { rounds: 5, timeMs: 40 } : { rounds: 30, timeMs: 60 };

export async function run(revision?: string): Promise<Row[]> {
  if (!revision) throw new Error('name the revision to compare with: wrapper-revision:<git revision>');
  const past = await loadRevision(revision);
  const { instrumentTool } = loadPackage();
  const plain = dropProvider();
  const tracer = plain.provider.getTracer('bench');
  const tools = bothTools(await realAxios503());
  const options = { tracerProvider: plain.provider };
  const then = `instrumentTool at ${past.commit}`;
  const now = 'instrumentTool, this checkout';
  const rows: Row[] = [];
  for (const outcome of ['success', 'failure'] as const) {
    const fn = tools[outcome];
    const fails = outcome === 'failure';
    const variants: Variant[] = [
      ...referenceVariants(tracer, fn, fails),
      { name: then, fn: batch(past.pkg.instrumentTool(fn, NAME, options), fails) },
      { name: now, fn: batch(instrumentTool(fn, NAME, options), fails) },
    ];
    const caseName = `3b wrapper, ${outcome} (vs minimal wrapper)`;
    const samples = await measure(caseName, variants, OPS, OPTIONS);
    rows.push(...rowsAgainst(caseName, samples, 'minimal wrapper', variants));
    const { verdict, p } = compareRounds(
      roundRatios(samples, 'minimal wrapper', now),
      roundRatios(samples, 'minimal wrapper', then),
    );
    const word = { ahead: 'faster', behind: 'slower', tied: 'tied' }[verdict];
    rows.push(
      valueRow({
        case: caseName,
        variant: `this checkout against ${past.commit}`,
        value: word,
        spread: `Mann-Whitney p = ${p.toPrecision(2)}, ${samples.get(now)!.length} rounds`,
      }),
    );
  }
  await plain.provider.shutdown();
  return rows;
}
