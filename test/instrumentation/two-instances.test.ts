import { SpanStatusCode } from '@opentelemetry/api';
import { expect } from 'chai';
import { runFixture, type SpanRecord } from '../processor/child-process-spans';

/**
 * Each ToolInstrumentation keeps its own hooks: disabling one leaves another, patched onto the same
 * modules, working as before (fixtures/two-instances.fixture.ts, in child processes, since both
 * instances must see the modules load).
 */
describe('two ToolInstrumentation instances, the first disabled', function () {
  this.timeout(120_000);
  const FIXTURE = '../instrumentation/fixtures/two-instances.fixture.ts';

  it('the second still sees that OpenInference traces LangChain tools, and adds no span beside its one', async () => {
    const { spans } = await runFixture(FIXTURE, ['openinference']);
    const forTool = spans.filter((s) => s.name === 'works' || s.name === 'execute_tool works');
    expect(
      forTool.map((s) => s.name),
      JSON.stringify(spans.map((s) => s.name)),
    ).to.deep.equal(['works']);
    expect(forTool[0]!.attributes['openinference.span.kind']).to.equal('TOOL');
  });

  it("the second still ends LangGraph's interrupts paused and its handoffs handoff, not failed", async () => {
    const { spans } = await runFixture(FIXTURE, ['langgraph']);
    const outcomes = (tool: string) =>
      spans
        .filter((s: SpanRecord) => s.name === `execute_tool ${tool}`)
        .map((s) => ({ outcome: s.attributes['tool.call.outcome'], status: s.status.code }));
    const paused = { outcome: 'paused', status: SpanStatusCode.UNSET };
    expect(outcomes('refund').filter((call) => call.outcome === 'paused')).to.deep.equal([paused, paused]);
    expect(outcomes('transfer_to_billing')).to.deep.equal([
      { outcome: 'handoff', status: SpanStatusCode.UNSET },
    ]);
    // The failure beside them is still one, so the second instance does trace.
    expect(outcomes('lookup')).to.have.length.greaterThan(0);
    for (const call of outcomes('lookup')) expect(call.status).to.equal(SpanStatusCode.ERROR);
  });
});
