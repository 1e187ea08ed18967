import { expect } from 'chai';
import type { ReceivedDataPoint, ReceivedSpan } from './otlp-json-receiver';

/** The exported spans of one tool, in the order they ended. */
export function toolSpans(spans: ReceivedSpan[], toolName: string): ReceivedSpan[] {
  return spans.filter((span) => span.attributes['gen_ai.tool.name'] === toolName);
}

/**
 * A call the framework stopped: `tool.call.outcome` says how, and nothing says it failed (no
 * status ERROR, no error attributes, no exception event), nor what it carried (`hiddenText`).
 */
export function expectHalted(span: ReceivedSpan, outcome: string, hiddenText?: string): void {
  expect(span.attributes['tool.call.outcome'], span.name).to.equal(outcome);
  expect(span.statusCode, `${span.name} status`).to.equal(0);
  expect(span.statusMessage ?? '', `${span.name} status message`).to.equal('');
  for (const key of ['error.type', 'tool.error_kind', 'tool.error_retryable', 'tool.error_executed'])
    expect(span.attributes, span.name).to.not.have.property(key);
  expect(
    span.events.map((event) => event.name),
    `${span.name} events`,
  ).to.not.include('exception');
  if (hiddenText === undefined) return;
  // What the span says about the call, not its ids or its resource: a hex id or the process.pid
  // can hold the same digits by chance (a check for the card number's 4111 failed once that way).
  const said = JSON.stringify([span.name, span.statusMessage, span.attributes, span.events]);
  expect(said, `${span.name}: ${said}`).to.not.include(hiddenText);
}

/** A call that ran to its end and succeeded. */
export function expectSucceeded(span: ReceivedSpan): void {
  expect(span.statusCode, `${span.name} status`).to.not.equal(2);
  expect(span.attributes, span.name).to.not.have.property('error.type');
  expect(span.attributes, span.name).to.not.have.property('tool.call.outcome');
}

/** A real failure beside the pauses: status ERROR with its `error.type` and kind, no outcome. */
export function expectFailed(span: ReceivedSpan, errorType: string, kind: string): void {
  expect(span.statusCode, `${span.name} status`).to.equal(2);
  expect(span.attributes, span.name).to.include({ 'error.type': errorType, 'tool.error_kind': kind });
  expect(span.attributes, span.name).to.not.have.property('tool.call.outcome');
}

/**
 * The tool's metric points: `tool.errors` only for real failures, and the duration histogram's
 * count per `tool.call.outcome` (`ok` for calls without one).
 */
export function toolMetrics(points: ReceivedDataPoint[], toolName: string) {
  const ofTool = points.filter((point) => point.attributes['gen_ai.tool.name'] === toolName);
  const durations: Record<string, number> = {};
  for (const point of ofTool.filter((p) => p.metric === 'gen_ai.execute_tool.duration')) {
    const key = String(point.attributes['tool.call.outcome'] ?? point.attributes['error.type'] ?? 'ok');
    durations[key] = (durations[key] ?? 0) + point.value;
  }
  const errors = ofTool
    .filter((point) => point.metric === 'tool.errors')
    .reduce((sum, point) => sum + point.value, 0);
  return { durations, errors };
}
