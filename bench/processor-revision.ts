import type { Tracer } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../src/semconv';
import {
  formatNs,
  measure,
  median,
  roundRatios,
  rowsAgainst,
  valueRow,
  type Row,
  type Variant,
} from './harness';
import { compareRounds } from './mann-whitney';
import { nonToolSpans } from './processor-non-tool';
import { loadPackage, loadRevision } from './subject';
import { batchProvider, registerMeterProvider } from './tracing';

/**
 * Case 1c, `npm run bench -- processor-revision:<git revision>`: the processors as this checkout
 * builds them and as `<revision>` built them, in one process, their rounds interleaved with the
 * same spans without them, every chain ending in a BatchSpanProcessor (default settings) to an
 * exporter that drops each batch: what an application's span costs as the SDK exports it. For
 * non-tool spans (case 1's, and Express middleware spans, whose names start as some tool spans'
 * do) and tool spans that succeed (recognition and following, no failure to read). A change on the processors' hot path is read against the span's own cost: how much of
 * it, as a share of the span without the processors, this checkout saves or adds against the
 * revision, per round, with a Mann-Whitney test over the rounds (p < 0.01).
 */

/** More rounds than the default 7: the differences in question are a few percent of a span. */
const OPTIONS = process.env.BENCH_QUICK
  ? { rounds: 3, timeMs: 60 }
  : { rounds: Number(process.env.BENCH_ROUNDS ?? 11), timeMs: 150 };

/** Spans a sample, in every scenario: case 1's loop makes 100 server and 100 client spans. */
const SPANS_PER_CALL = 200;

/**
 * Non-tool spans whose names start as some tool spans' do (`m` as `mcp_tool: '…'`): Express names
 * its middleware spans so. They pass a first-character test and reach the full one.
 */
function middlewareSpans(tracer: Tracer): () => void {
  return () => {
    for (let i = 0; i < SPANS_PER_CALL; i++) {
      tracer
        .startSpan('middleware - jsonParser', {
          attributes: { 'express.name': 'jsonParser', 'express.type': 'middleware', 'http.route': '/' },
        })
        .end();
    }
  };
}

function toolSpans(tracer: Tracer): () => void {
  return () => {
    for (let i = 0; i < SPANS_PER_CALL; i++) {
      tracer
        .startSpan('execute_tool get_weather', {
          attributes: {
            [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
            [ATTR_GEN_AI_TOOL_NAME]: 'get_weather',
          },
        })
        .end();
    }
  };
}

const SCENARIOS: Record<string, (tracer: Tracer) => () => void> = {
  'non-tool spans': nonToolSpans,
  'non-tool spans named as tool spans start': middlewareSpans,
  'tool spans that succeed': toolSpans,
};

type Package = ReturnType<typeof loadPackage> | Awaited<ReturnType<typeof loadRevision>>['pkg'];

/** `ToolErrorSpanProcessor` alone, and the register's chain in its order (src/register/telemetry.ts). */
function chains(pkg: Package): Record<string, () => SpanProcessor[]> {
  return {
    ToolErrorSpanProcessor: () => [new pkg.ToolErrorSpanProcessor()],
    "the register's chain": () => [
      new pkg.RedactingSpanProcessor(),
      new pkg.ToolErrorSpanProcessor(),
      new pkg.ToolMetricsSpanProcessor(),
    ],
  };
}

export async function run(revision?: string): Promise<Row[]> {
  if (!revision) throw new Error('name the revision to compare with: processor-revision:<git revision>');
  registerMeterProvider();
  const past = await loadRevision(revision);
  const now = chains(loadPackage());
  const then = chains(past.pkg);
  const rows: Row[] = [];
  for (const [scenario, spans] of Object.entries(SCENARIOS)) {
    const providers: Array<ReturnType<typeof batchProvider>> = [];
    const variant = (name: string, processors: SpanProcessor[]): Variant => {
      const chain = batchProvider(processors);
      providers.push(chain);
      const sample = spans(chain.provider.getTracer('bench'));
      // Async, so that each sample ends with a turn of the event loop, where the
      // BatchSpanProcessor's export completes: in a synchronous loop its queue would fill and
      // drop spans, which costs less than exporting them.
      return { name, fn: async () => sample() };
    };
    const baseline = 'without processors';
    const pairs = Object.keys(now).map((chain) => ({
      chain,
      then: `${chain} at ${past.commit}`,
      now: `${chain}, this checkout`,
    }));
    const variants = [
      variant(baseline, []),
      ...pairs.flatMap(({ chain, then: thenName, now: nowName }) => [
        variant(thenName, then[chain]!()),
        variant(nowName, now[chain]!()),
      ]),
    ];
    const caseName = `1c processors through a BatchSpanProcessor, ${scenario} (per span)`;
    const samples = await measure(caseName, variants, SPANS_PER_CALL, OPTIONS);
    rows.push(...rowsAgainst(caseName, samples, baseline, variants));
    for (const pair of pairs) {
      const ratiosNow = roundRatios(samples, baseline, pair.now);
      const ratiosThen = roundRatios(samples, baseline, pair.then);
      // Per round: the checkout's time minus the revision's, as a share of the span without processors.
      const shares = ratiosNow.map((ratio, i) => ratio - ratiosThen[i]!);
      const timesThen = samples.get(pair.then)!;
      const added = samples.get(pair.now)!.map((s, i) => s.nsPerOp - timesThen[i]!.nsPerOp);
      const { verdict, p } = compareRounds(ratiosNow, ratiosThen);
      const word = { ahead: 'faster', behind: 'slower', tied: 'tied' }[verdict];
      rows.push(
        valueRow({
          case: caseName,
          variant: `${pair.chain}: this checkout against ${past.commit}`,
          value: `${word}, ${formatShare(median(shares))} of a span`,
          spread: `[${formatShare(Math.min(...shares))} to ${formatShare(Math.max(...shares))}], Mann-Whitney p = ${p.toPrecision(2)}, ${shares.length} rounds`,
          added: formatNs(median(added), true),
        }),
      );
    }
    await Promise.all(providers.map(({ provider }) => provider.shutdown()));
  }
  return rows;
}

function formatShare(share: number): string {
  return `${share > 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
}
