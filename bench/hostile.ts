import { SpanStatusCode } from '@opentelemetry/api';
import { CRAFTED_FOR_CLASSIFIER, CRAFTED_MESSAGES, HOSTILE } from '../test/reliability/hostile-values';
import { settings, valueRow, type Row } from './harness';
import { loadPackage } from './subject';
import { consume, dropProvider } from './tracing';

const { classifyMessage, classifyToolError, instrumentTool, ToolErrorSpanProcessor } = loadPackage();

/**
 * Case 12: the time of one call on input built against the package: 10 MB messages and messages
 * crafted against the classifier's and the redaction's patterns, and errors built to break whoever
 * inspects them (test/reliability/hostile-values.ts, which the specs of test/classify/hostile-input
 * and test/reliability/hostile-errors check for correctness). Linear work on 10 MB takes tens of
 * milliseconds; a catastrophic backtrack takes minutes. Each value is timed three times and the
 * slowest kept, in this process's CPU time (`BENCH_CLOCK=wall` for wall time).
 */

/** A classifier call on a crafted message: generous for a loaded machine, far below a backtrack. */
const CLASSIFIER_TARGET_MS = 1_000;
/** One failed call through the wrapper and processor (a 100,000-deep cause chain is made and read). */
const CALL_TARGET_MS = 10_000;

function nowMs(): number {
  if (settings.clock === 'wall') return performance.now();
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** The slowest of three runs of `fn`, in ms. */
function slowestOfThree(fn: () => void): number {
  let slowest = 0;
  for (let i = 0; i < 3; i++) {
    const started = nowMs();
    fn();
    slowest = Math.max(slowest, nowMs() - started);
  }
  return slowest;
}

function row(part: string, variant: string, ms: number, targetMs: number): Row {
  return valueRow({
    case: `12 hostile input: ${part}`,
    variant,
    value: `${ms.toFixed(1)} ms`,
    spread: 'slowest of 3',
    target: `< ${(targetMs / 1000).toLocaleString('en-US')} s`,
    verdict: ms < targetMs ? 'met' : 'MISSED',
  });
}

/** `'status ' × 1,000,000 + 'x'` style labels for the classifier's crafted messages. */
function describeMessage(message: string): string {
  const head = JSON.stringify(message.slice(0, 12));
  return `${head}… (${(message.length / 1e6).toFixed(1)} MB)`;
}

export function run(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const message of CRAFTED_FOR_CLASSIFIER) {
    const error = new Error(message);
    const ms = slowestOfThree(() => {
      consume(classifyToolError(error));
      consume(classifyMessage(message));
    });
    rows.push(row('classifyToolError + classifyMessage', describeMessage(message), ms, CLASSIFIER_TARGET_MS));
  }

  const { provider } = dropProvider([new ToolErrorSpanProcessor()]);
  const tracer = provider.getTracer('bench');
  for (const [label, make] of Object.entries(HOSTILE)) {
    const hostile = make();
    const tool = instrumentTool(
      (_args: unknown) => {
        throw hostile;
      },
      'hostile',
      { tracerProvider: provider, captureArguments: true },
    );
    const ms = slowestOfThree(() => {
      try {
        tool(hostile);
      } catch (err) {
        consume(err);
      }
    });
    rows.push(row('thrown through instrumentTool, processor', label, ms, CALL_TARGET_MS));
  }
  for (const [label, make] of Object.entries(CRAFTED_MESSAGES)) {
    const text = make();
    const ms = slowestOfThree(() => {
      const span = tracer.startSpan('execute_tool fw', {
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fw' },
      });
      span.setStatus({ code: SpanStatusCode.ERROR, message: text });
      span.addEvent('exception', { 'exception.type': text, 'exception.message': text });
      span.end();
    });
    rows.push(row('status and exception event of a framework span, processor', label, ms, CALL_TARGET_MS));
  }
  return provider.shutdown().then(() => rows);
}
