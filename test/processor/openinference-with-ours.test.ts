import { SpanStatusCode } from '@opentelemetry/api';
import { expect } from 'chai';
import { FIXTURE_SPEC_TIMEOUT_MS, useFixture } from './child-process-spans';

/**
 * OpenInference's LangChain instrumentation and ours together (openinference-with-ours.fixture.ts):
 * one tool span per call, OpenInference's, enriched; no second `execute_tool` span.
 */
describe('OpenInference LangChain instrumentation with ToolInstrumentation: one tool span per call', function () {
  this.timeout(FIXTURE_SPEC_TIMEOUT_MS);
  const fixture = useFixture('openinference-with-ours.fixture.ts');

  it('one span per tool call, no execute_tool span of ours beside it', () => {
    for (const name of ['refused', 'works']) {
      const forTool = fixture.spans.filter((s) => s.name === name || s.name === `execute_tool ${name}`);
      expect(
        forTool.map((s) => s.name),
        JSON.stringify(fixture.spans.map((s) => s.name)),
      ).to.deep.equal([name]);
      expect(forTool[0]!.attributes['openinference.span.kind']).to.equal('TOOL');
    }
  });

  it("the failed call's span is enriched: error.type, kind, gen_ai.tool.name, status ERROR", () => {
    const span = fixture.spans.find((s) => s.name === 'refused')!;
    expect(span.attributes).to.include({
      'gen_ai.tool.name': 'refused',
      'error.type': 'ECONNREFUSED',
      'tool.error_kind': 'network',
    });
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('the successful call stays unmarked', () => {
    const span = fixture.spans.find((s) => s.name === 'works')!;
    expect(span.attributes['error.type']).to.equal(undefined);
    expect(span.status.code).to.not.equal(SpanStatusCode.ERROR);
  });
});
