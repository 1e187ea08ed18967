import { SpanStatusCode } from '@opentelemetry/api';
import { expect } from 'chai';
import { FIXTURE_SPEC_TIMEOUT_MS, useFixture } from './child-process-spans';

/** Google ADK's own `execute_tool {name}` spans from a real agent run (adk.fixture.ts). */
describe('ToolErrorSpanProcessor on Google ADK execute_tool spans', function () {
  this.timeout(FIXTURE_SPEC_TIMEOUT_MS);
  const fixture = useFixture('adk.fixture.ts');

  const span = (name: string) => {
    const found = fixture.spans.find((s) => s.name === name);
    expect(found, `span ${name} among ${fixture.spans.map((s) => s.name).join(', ')}`).not.to.equal(
      undefined,
    );
    return found!;
  };

  it('turns a returned { status: "error" } result, which ADK leaves UNSET, into status ERROR', () => {
    const quota = span('execute_tool quota');
    expect(quota.status.code).to.equal(SpanStatusCode.ERROR);
    expect(quota.attributes).to.include({
      'error.type': 'tool_error',
      'tool.error_kind': 'quota',
      'tool.error_retryable': false,
      'tool.error_executed': true,
    });
  });

  it('names the span of a tool that threw, which ADK ends with no attributes and no status', () => {
    // ADK records nothing about the throw on the span (no status, no exception event), so the
    // processor alone cannot tell it failed; the ToolInstrumentation's ADK adapter can.
    const lookup = span('execute_tool lookup');
    expect(lookup.attributes['gen_ai.tool.name']).to.equal('lookup');
    expect(lookup.status.code).to.equal(SpanStatusCode.UNSET);
    expect(lookup.attributes).to.not.have.property('error.type');
  });

  it('leaves successful tool spans and the merged-call span alone', () => {
    for (const name of ['execute_tool clock', 'execute_tool (merged)']) {
      expect(span(name).status.code, name).to.equal(SpanStatusCode.UNSET);
      expect(span(name).attributes, name).to.not.have.property('error.type');
    }
  });

  it('logs no warnings', () => {
    expect(fixture.diagnostics).to.deep.equal([]);
  });
});
