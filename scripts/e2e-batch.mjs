// Traffic for the production-tier check in scripts/e2e.sh: many small traces, each one agent
// span over one tool call, run under the zero-code register:
//
//   node --import otel-tool-errors/register scripts/e2e-batch.mjs <ok> <error>
//
// <ok> traces succeed (the tail sampler keeps about 10% of them); <error> traces have a root
// span with status ERROR around a successful tool call (kept by the sampler's status policy,
// without tool.error_kind). Every trace has exactly two spans, so a trace split between
// gateways shows up as a kept trace with one span.
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { instrumentTool } from 'otel-tool-errors';

const [ok, error] = process.argv.slice(2, 4).map(Number);
if (!Number.isInteger(ok) || !Number.isInteger(error)) {
  console.error('usage: e2e-batch.mjs <ok traces> <error traces>');
  process.exit(2);
}

const tracer = trace.getTracer('otel-tool-errors-e2e-batch');
const lookupOrder = instrumentTool(async (id) => ({ id, status: 'shipped' }), { name: 'lookup_order' });

async function oneTrace(i, failed) {
  await tracer.startActiveSpan('invoke_agent order-bot', { root: true }, async (span) => {
    await lookupOrder(i);
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: 'agent gave up' });
    span.end();
  });
}

for (let i = 0; i < ok; i++) await oneTrace(i, false);
for (let i = 0; i < error; i++) await oneTrace(ok + i, true);
console.log(`e2e-batch: ${ok} ok traces, ${error} error traces`);
