import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { useFixture, type SpanRecord } from '../processor/child-process-spans';
import { errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';

/**
 * Two ToolInstrumentation instances, each with its own tracer provider, patch the real
 * `@google/adk` (fixtures/google-adk-two-instances.fixture.ts, in a child process, since ADK binds
 * its tracer to the first global provider it sees). ADK makes its tool spans through the global
 * provider; whichever instances are enabled, each call's ADK span is enriched once, with the
 * tool's real error (noted by the `execute` and `validateArgs` that whichever instance came first
 * made noting), and no instance adds a span of its own. Called outside ADK's span, the tool gets
 * one span of ours.
 */
const SUCCEEDED = { type: undefined, kind: undefined, executed: undefined, status: SpanStatusCode.UNSET };
const CASES = [
  { label: 'ok', expected: SUCCEEDED, exceptions: 0 },
  { label: '503', expected: executedFailure('503', 'transient'), exceptions: 1 },
  { label: 'invalid', expected: unexecutedFailure('ZodError', 'invalid_input'), exceptions: 1 },
];
const PHASES = [
  { phase: 'both', owner: 'either' },
  { phase: 'first disabled', owner: 'second' },
  { phase: 'first disabled, new tool', owner: 'second' },
  { phase: 'second disabled', owner: 'first' },
  { phase: 'second disabled, new tool', owner: 'first' },
  { phase: 'both again', owner: 'either' },
  { phase: 'both again, tool first called while the first was disabled', owner: 'either' },
];

describe('Google ADK adapter: two ToolInstrumentation instances with their own providers', function () {
  const fixture = useFixture('../instrumentation/fixtures/google-adk-two-instances.fixture.ts');

  const toolSpans = (run: string) =>
    fixture.spans.filter(
      (span) => span.name === 'execute_tool fetch_path' && span.attributes['test.run'] === run,
    );
  const fromProvider = (list: SpanRecord[], provider: string) =>
    list.filter((span) => span.attributes['test.provider'] === provider);
  const errorOfRecord = (span: SpanRecord) => errorOf(span as unknown as ReadableSpan);

  for (const { phase, owner } of PHASES)
    it(`${phase}: ADK's span enriched once per call, none of ours beside it; one of ours outside ADK`, () => {
      for (const { label, expected, exceptions } of CASES) {
        const run = toolSpans(`${phase}|${label}`);
        const adkSpans = fromProvider(run, 'global');
        expect(
          run.map((span) => span.attributes['test.provider']),
          `${label}: the providers of its spans`,
        ).to.deep.equal(['global']);
        expect(errorOfRecord(adkSpans[0]!), label).to.deep.equal(expected);
        expect(
          adkSpans[0]!.events.filter((event) => event.name === 'exception'),
          `${label}: exception events`,
        ).to.have.length(exceptions);
      }
      const outside = toolSpans(`${phase}|outside`);
      const providers = outside.map((span) => span.attributes['test.provider']);
      if (owner === 'either') expect(providers).to.have.length(1).and.to.not.include('global');
      else expect(providers).to.deep.equal([owner]);
      expect(errorOfRecord(outside[0]!)).to.deep.equal(executedFailure('503', 'transient'));
    });
});
