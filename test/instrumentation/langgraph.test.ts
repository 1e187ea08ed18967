import { createRequire } from 'node:module';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { useAdapterTestBed } from '../helpers/test-bed';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches them.
const load = createRequire(__filename);

/**
 * LangGraph's pauses through the LangChain adapter, in process (the version matrix runs this spec
 * on each listed LangGraph release): a tool that asks a human with `interrupt()` ends paused, its
 * resumed runs are calls of their own, a `Command.PARENT` handoff ends handoff, and a 500 beside
 * them stays a failure. The register's spec (test/register/langgraph-pauses.test.ts) runs the same
 * agent in child processes.
 */
describe('LangGraph pauses and handoffs (through the LangChain adapter)', function () {
  this.timeout(120_000);
  const bed = useAdapterTestBed();
  let spans: ReadableSpan[];
  let output: string;

  before(async function () {
    process.env.FLAKY_URL = bed.server.url;
    const { runLangGraphApprovals } = load('../register/fixtures/langgraph-approvals-run.cjs') as {
      runLangGraphApprovals(modules: Record<string, unknown>): Promise<string>;
    };
    output = await runLangGraphApprovals({
      langgraph: load('@langchain/langgraph'),
      prebuilt: load('@langchain/langgraph/prebuilt'),
      messages: load('@langchain/core/messages'),
      tools: load('@langchain/core/tools'),
      z: load('zod'),
    });
    spans = bed.tracing.spans().filter((span) => span.name.startsWith('execute_tool '));
  });
  after(() => delete process.env.FLAKY_URL);

  const outcomes = (tool: string) =>
    spans
      .filter((span) => span.attributes['gen_ai.tool.name'] === tool)
      .map((span) => ({
        outcome: span.attributes['tool.call.outcome'],
        status: span.status.code,
        type: span.attributes['error.type'],
      }));

  it("runs as it does untraced: each refund pauses, then resumes with the human's answer", () => {
    expect(output).to.contain('refund yes: paused with 1 question');
    expect(output).to.contain('refund no: paused with 1 question');
    expect(output).to.contain('handoff: billing here');
  });

  it('interrupt() ends its span paused, without status ERROR; each resumed run is a call of its own', () => {
    const refunds = outcomes('refund');
    const paused = { outcome: 'paused', status: SpanStatusCode.UNSET, type: undefined };
    const ran = { outcome: undefined, status: SpanStatusCode.UNSET, type: undefined };
    expect(refunds.filter((call) => call.outcome === 'paused')).to.deep.equal([paused, paused]);
    expect(refunds.filter((call) => call.outcome !== 'paused')).to.deep.equal([ran, ran]);
  });

  it('Command.PARENT ends the handing-off tool span handoff', () => {
    expect(outcomes('transfer_to_billing')).to.deep.equal([
      { outcome: 'handoff', status: SpanStatusCode.UNSET, type: undefined },
    ]);
  });

  it('the 500 beside them stays a failure', () => {
    const lookups = outcomes('lookup');
    expect(lookups.length).to.be.greaterThan(0);
    // No HTTP instrumentation here: the tool's plain Error is the evidence (the register's spec has the 500).
    const failed = { outcome: undefined, status: SpanStatusCode.ERROR, type: 'Error' };
    for (const call of lookups) expect(call).to.deep.equal(failed);
  });
});
