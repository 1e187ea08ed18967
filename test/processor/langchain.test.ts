import { SpanStatusCode } from '@opentelemetry/api';
import { expect } from 'chai';
import { FIXTURE_SPEC_TIMEOUT_MS, useFixture } from './child-process-spans';

/**
 * LangChain tool spans made by the OpenInference and OpenLLMetry instrumentations on real
 * LangChain tools (langchain.fixture.ts): the tools throw ECONNREFUSED, return an MCP error
 * result, work, and throw an error carrying secrets, in that order.
 */
describe('ToolErrorSpanProcessor on LangChain tool spans (OpenInference, OpenLLMetry)', function () {
  this.timeout(FIXTURE_SPEC_TIMEOUT_MS);
  const fixture = useFixture('langchain.fixture.ts');

  const openInference = (tool: string) =>
    fixture.spans.find((s) => s.attributes['openinference.span.kind'] === 'TOOL' && s.name === tool)!;
  const traceloop = () => fixture.spans.filter((s) => s.name.startsWith('execute_tool '));

  it('classifies the OpenInference span of a throw by its message (it records no exception type)', () => {
    const span = openInference('refused');
    expect(span.attributes).to.include({
      'error.type': 'ECONNREFUSED',
      'tool.error_kind': 'network',
      'gen_ai.tool.name': 'refused',
    });
    // OpenInference appends the stack to the status description; only the first line is kept.
    expect(span.status).to.deep.equal({
      code: SpanStatusCode.ERROR,
      message: 'connect ECONNREFUSED 127.0.0.1:9',
    });
  });

  it('overrides the OK that OpenInference sets on a returned MCP error result', () => {
    const span = openInference('mcp');
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
    expect(span.attributes).to.include({ 'error.type': 'tool_error', 'tool.error_kind': 'auth' });
  });

  it('marks the OpenLLMetry spans the same way, reading its doubly encoded output', () => {
    const [refused, mcp, works] = traceloop();
    expect(refused.attributes).to.include({ 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' });
    expect(mcp.status.code).to.equal(SpanStatusCode.ERROR);
    expect(mcp.attributes).to.include({ 'error.type': 'tool_error', 'tool.error_kind': 'auth' });
    expect(works.status.code).to.equal(SpanStatusCode.OK);
    expect(works.attributes).to.not.have.property('error.type');
    // OpenLLMetry names the tool by its LangChain class; that is the name it records, so it is the one filled.
    expect(works.attributes['gen_ai.tool.name']).to.equal(works.attributes['traceloop.entity.name']);
  });

  it('leaves the successful OpenInference span OK and unmarked', () => {
    const span = openInference('works');
    expect(span.status.code).to.equal(SpanStatusCode.OK);
    expect(span.attributes).to.not.have.property('error.type');
    expect(span.attributes['gen_ai.tool.name']).to.equal('works');
  });

  it('redacts the exception events both instrumentations record, before export', () => {
    const leaky = fixture.spans.filter((s) => s.name === 'leaky' || s.name === 'execute_tool leaky');
    const withEvents = leaky.filter((s) => s.events.some((event) => event.name === 'exception'));
    expect(withEvents.length, 'spans of the leaky tool that recorded the exception').to.be.at.least(1);
    const exported = JSON.stringify(leaky);
    expect(exported).not.to.include('at8Hq2kWm5');
    expect(exported).not.to.include('glpat-');
    for (const span of withEvents) {
      const event = span.events.find((e) => e.name === 'exception')!;
      // One of them records `String(error)` (the class name in front), LangChain appends the stack.
      expect(event.attributes!['exception.message'], JSON.stringify(event.attributes)).to.match(
        /^(Error: )?upstream said \{"access_token":"\[REDACTED\]"\} with \[REDACTED\]/,
      );
    }
  });

  it('logs no warnings', () => {
    expect(fixture.diagnostics).to.deep.equal([]);
  });
});
