import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { expect } from 'chai';
import { ToolErrorSpanProcessor } from '../../src';
import type { FlakyServer } from '../helpers/flaky-server';
import { useTestBed } from '../helpers/test-bed';
import type { TestTracing } from '../helpers/tracing';
import { errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';

/**
 * The spans `@mastra/otel-bridge` makes for Mastra tool calls, rebuilt step by step from its source
 * (`@mastra/otel-bridge` 1.5.4 `dist/index.js`: `createSpan`, `executeInContext`,
 * `handleSpanEnded`; `@mastra/otel-exporter` 1.3.12 `dist/index.js`: `getSpanName`,
 * `getAttributes`, `buildStatusAndEvents`).
 *
 * Why not the package itself: it declares `@opentelemetry/auto-instrumentations-node` and
 * `@opentelemetry/sdk-node` as peers (npm would pull the whole auto-instrumentation set, whose
 * current release needs the 3.x SDK line and Node >= 22) and depends on `@opentelemetry/api`
 * ^1.9.1, which would install a second API copy beside this project's 1.9.0.
 *
 * The bridge's shape: a live OTel span named `tool: '<name>'` with no attributes while the tool
 * runs (active, so HTTP client spans nest under it); at the end it is renamed
 * `execute_tool <name>`, gets the GenAI attributes, `error.type = errorInfo.id || 'unknown'` (a
 * Mastra error id, not the tool's error), status ERROR with the message, and an exception event
 * rebuilt from the message alone. A tool's returned validation failure ends it with status OK.
 */
interface MastraToolSpan {
  entityName: string;
  attributes: { toolCallId?: string; toolDescription?: string; toolType: string; success?: boolean };
  input?: unknown;
  output?: unknown;
  errorInfo?: { message: string; id?: string; domain?: string; category?: string };
}

class FaithfulOtelBridge {
  constructor(private readonly tracer: Tracer) {}

  /** `createSpan` for a `tool_call` span, then `executeInContext` around the tool. */
  async runTool<T>(name: string, tool: () => Promise<T>): Promise<{ span: Span; outcome: T | Error }> {
    const span = this.tracer.startSpan(`tool: '${name}'`, { kind: SpanKind.INTERNAL }, context.active());
    const outcome = await context
      .with(trace.setSpan(context.active(), span), tool)
      .catch((err: Error) => err);
    return { span, outcome };
  }

  /** `handleSpanEnded` with the exporter's conversion of a tool span. */
  end(span: Span, mastra: MastraToolSpan): void {
    const attributes: Record<string, string | number | boolean | undefined> = {
      'gen_ai.operation.name': 'execute_tool',
      'mastra.span.type': 'tool_call',
      'gen_ai.tool.call.arguments': mastra.input === undefined ? undefined : JSON.stringify(mastra.input),
      'gen_ai.tool.call.result': mastra.output === undefined ? undefined : JSON.stringify(mastra.output),
      'gen_ai.tool.name': mastra.entityName,
      'gen_ai.tool.call.id': mastra.attributes.toolCallId,
      'gen_ai.tool.description': mastra.attributes.toolDescription,
      'gen_ai.tool.type': mastra.attributes.toolType,
    };
    if (mastra.errorInfo) {
      attributes['error.type'] = mastra.errorInfo.id || 'unknown';
      attributes['error.message'] = mastra.errorInfo.message;
      if (mastra.errorInfo.domain) attributes['error.domain'] = mastra.errorInfo.domain;
      if (mastra.errorInfo.category) attributes['error.category'] = mastra.errorInfo.category;
    }
    span.updateName(`execute_tool ${mastra.entityName}`);
    for (const [key, value] of Object.entries(attributes))
      if (value !== undefined) span.setAttribute(key, value);
    span.setStatus(
      mastra.errorInfo
        ? { code: SpanStatusCode.ERROR, message: mastra.errorInfo.message }
        : { code: SpanStatusCode.OK },
    );
    if (mastra.errorInfo) span.recordException(new Error(mastra.errorInfo.message));
    span.end();
  }
}

describe('ToolErrorSpanProcessor on @mastra/otel-bridge tool spans', () => {
  const bed = useTestBed({ spanProcessors: [new ToolErrorSpanProcessor()], undici: {} });
  let tracing: TestTracing;
  let server: FlakyServer;
  let bridge: FaithfulOtelBridge;

  before(() => {
    ({ tracing, server } = bed);
    bridge = new FaithfulOtelBridge(tracing.provider.getTracer('@mastra/otel-bridge', '1.0.0'));
  });

  /** What Mastra's `tool_call` span holds when the tool threw `err` (its first `span.error()`). */
  function thrown(err: Error, input: unknown): MastraToolSpan {
    return {
      entityName: 'fetch_path',
      attributes: { toolCallId: 'call_1', toolDescription: 'GETs a path', toolType: 'tool' },
      input,
      errorInfo: { message: err.message },
    };
  }

  it("replaces Mastra's placeholder error.type with the status of the failed HTTP call under the span", async () => {
    const input = { path: '/503' };
    const { span, outcome } = await bridge.runTool('fetch_path', async () => {
      const res = await fetch(server.url + input.path);
      if (!res.ok) throw new Error(`GET ${input.path} failed`);
      return res.text();
    });
    bridge.end(span, thrown(outcome as Error, input));
    const exported = tracing.span('execute_tool fetch_path');
    expect(exported.instrumentationScope.name).to.equal('@mastra/otel-bridge');
    expect(errorOf(exported)).to.deep.equal(executedFailure('503', 'transient'));
    expect(exported.attributes['gen_ai.tool.name']).to.equal('fetch_path');
    expect(exported.attributes['gen_ai.tool.call.id']).to.equal('call_1');
  });

  it('classifies from the message when the bridge kept nothing else (a timeout)', async () => {
    const { span, outcome } = await bridge.runTool('fetch_path', () =>
      fetch(`${server.url}/hang`, { signal: AbortSignal.timeout(50) }),
    );
    expect((outcome as Error).name).to.equal('TimeoutError');
    bridge.end(span, thrown(outcome as Error, { path: '/hang' }));
    expect(errorOf(tracing.span('execute_tool fetch_path'))).to.deep.equal(
      executedFailure('timeout', 'timeout'),
    );
  });

  it('marks a returned validation failure, which the bridge ends with status OK, as invalid_input', async () => {
    const { span } = await bridge.runTool('fetch_path', async () => undefined);
    // Mastra's agent validates the input before `execute` and ends its span with the failure as output.
    bridge.end(span, {
      entityName: 'fetch_path',
      attributes: { toolCallId: 'call_2', toolDescription: 'GETs a path', toolType: 'tool', success: false },
      input: { path: 42 },
      output: {
        error: true,
        message:
          'Tool input validation failed for fetch_path. Please fix the following errors and try again:',
        validationErrors: { errors: [], fields: { path: { errors: ['Invalid input: expected string'] } } },
      },
    });
    expect(errorOf(tracing.span('execute_tool fetch_path'))).to.deep.equal(
      unexecutedFailure('tool_error', 'invalid_input'),
    );
  });

  it('leaves a successful tool span as the bridge ended it', async () => {
    const { span } = await bridge.runTool('fetch_path', () =>
      fetch(`${server.url}/ok`).then((res) => res.text()),
    );
    bridge.end(span, {
      entityName: 'fetch_path',
      attributes: { toolCallId: 'call_3', toolType: 'tool' },
      input: { path: '/ok' },
      output: { body: '{"ok":true}' },
    });
    const exported = tracing.span('execute_tool fetch_path');
    expect(exported.status.code).to.equal(SpanStatusCode.OK);
    expect(exported.attributes['error.type']).to.equal(undefined);
    expect(exported.attributes['tool.error_kind']).to.equal(undefined);
  });
});
