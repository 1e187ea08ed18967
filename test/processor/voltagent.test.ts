import { SpanStatusCode } from '@opentelemetry/api';
import { expect } from 'chai';
import { mark, markOf } from '../helpers/tool-failures';
import { FIXTURE_SPEC_TIMEOUT_MS, runFixture, type SpanRecord } from './child-process-spans';

function toolSpan(spans: SpanRecord[], tool: string): SpanRecord {
  const found = spans.find((s) => s.name === `tool.execution:${tool}`);
  expect(found, `tool.execution:${tool} among ${spans.map((s) => s.name).join(', ')}`).not.to.equal(
    undefined,
  );
  return found!;
}

/** What this package logged, or the SDK logged about writes to ended spans; VoltAgent's own noise aside. */
function ourDiagnostics(diagnostics: string[]): string[] {
  return diagnostics.filter((message) => /ToolError|otel-tool-errors|ended Span/.test(message));
}

/** The same expectations whichever path (processor or exporter) did the marking. */
function expectMarkedVoltAgentSpans(spans: SpanRecord[]): void {
  // VoltAgent sets error.type to its wrapper class; the 503 its message states replaces it, and
  // the class stays visible (its exception event's type, or tool.error_framework_type).
  const lookup = toolSpan(spans, 'lookup');
  expect(markOf(lookup as never)).to.deep.equal(mark('503', 'transient', true));
  const kept = [
    lookup.attributes['tool.error_framework_type'],
    ...lookup.events.map((event) => event.attributes?.['exception.type']),
  ];
  expect(kept).to.include('VoltAgentError');
  expect(lookup.attributes['gen_ai.tool.name']).to.equal('lookup');

  // VoltAgent sets status OK on every call that returned, error results included.
  const mcp = toolSpan(spans, 'mcp');
  expect(markOf(mcp as never)).to.deep.equal(mark('-32602', 'unknown_tool', false, false));

  const clock = toolSpan(spans, 'clock');
  expect(clock.status.code).to.equal(SpanStatusCode.OK);
  expect(clock.attributes).to.not.have.property('error.type');
  expect(clock.attributes['gen_ai.tool.name']).to.equal('clock');
}

/** VoltAgent's own `tool.execution:{name}` spans from a real agent run (voltagent.fixture.ts). */
describe('ToolErrorSpanProcessor on VoltAgent tool.execution spans', function () {
  this.timeout(FIXTURE_SPEC_TIMEOUT_MS);

  it('marks them in onEnding when VoltAgent passes the processor through', async () => {
    const { spans, diagnostics } = await runFixture('voltagent.fixture.ts', ['unfiltered']);
    expectMarkedVoltAgentSpans(spans);
    expect(ourDiagnostics(diagnostics)).to.deep.equal([]);
  });

  it("marks them in onEnd behind VoltAgent's span filter (no onEnding), without a warning", async () => {
    const { spans, diagnostics } = await runFixture('voltagent.fixture.ts', ['filtered']);
    expectMarkedVoltAgentSpans(spans);
    expect(ourDiagnostics(diagnostics)).to.deep.equal([]);
  });

  it("ToolErrorEnrichingExporter marks them the same behind VoltAgent's span filter", async () => {
    const { spans, diagnostics } = await runFixture('voltagent.fixture.ts', ['filtered-exporter']);
    expectMarkedVoltAgentSpans(spans);
    expect(ourDiagnostics(diagnostics)).to.deep.equal([]);
  });
});
