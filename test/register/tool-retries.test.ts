import { join } from 'node:path';
import { expect } from 'chai';
import type { ReceivedDataPoint, ReceivedSpan } from '../helpers/otlp-json-receiver';
import { useRegisterBed } from '../helpers/register-bed';
import { runPlainAndRegistered } from '../helpers/run-node';

/**
 * Retries under `node --require otel-tool-errors/register` and its ESM twin under `--import`, in
 * the AI SDK, LangGraph, OpenAI Agents and MCP (fixtures/tool-retries-run.cjs): a tool whose API answers 503 and then 200, called again with
 * the same arguments in the same agent run, exports two spans linked as attempts, and the failure
 * counts as recovered; calls with other arguments and parallel calls are not attempts.
 */

const FIXTURES = join(__dirname, 'fixtures');
const FRAMEWORKS = ['ai-sdk', 'langgraph', 'openai-agents', 'mcp'] as const;

const EXPECTED_OUTPUT = [
  'ai-sdk retry: tool-error tool-result',
  'ai-sdk other: tool-error tool-result',
  'ai-sdk parallel: tool-error tool-result',
  'langgraph retry: error success',
  'langgraph other: error success',
  'langgraph parallel: error success',
  'openai-agents retry: error ok',
  'openai-agents other: error ok',
  'openai-agents parallel: error ok',
  'mcp retry: isError ok',
  'mcp other: isError ok',
  'mcp parallel: isError ok',
].join('\n');

describe('the register: retries of a failed tool call are attempts of it', function () {
  this.timeout(120_000);
  const bed = useRegisterBed();
  const twins = [
    { flag: '--require', script: 'tool-retries.cjs', bundle: () => bed.bundles.cjs },
    { flag: '--import', script: 'tool-retries.mjs', bundle: () => bed.bundles.esm },
  ];
  for (const { flag, script, bundle } of twins) {
    describe(`node ${flag} otel-tool-errors/register ${script}`, () => retries(flag, script, bundle));
  }
});

function retries(flag: string, script: string, bundle: () => string): void {
  let spans: ReceivedSpan[] = [];
  let points: ReceivedDataPoint[] = [];

  before(async () => {
    const runs = await runPlainAndRegistered(
      [flag, bundle()],
      join(FIXTURES, script),
      {},
      { OTEL_SERVICE_NAME: 'tool-retries', OTEL_METRICS_EXPORTER: 'otlp' },
    );
    expect(runs.plain).to.deep.equal({ code: 0, stdout: `${EXPECTED_OUTPUT}\n`, stderr: '' });
    expect(runs.registered).to.deep.equal(runs.plain);
    spans = runs.spans;
    points = runs.points;
  });

  /** The tool spans of one scenario's agent run (the app's span `<framework> <scenario>`), on one side for MCP. */
  function toolSpans(framework: string, scenario: string, kind?: number): ReceivedSpan[] {
    const run = spans.filter((span) => span.name === `${framework} ${scenario}`);
    expect(run, `${framework} ${scenario}`).to.have.length(1);
    return spans.filter(
      (span) =>
        span.traceId === run[0]!.traceId &&
        span.attributes['gen_ai.tool.name'] !== undefined &&
        (kind === undefined || span.kind === kind),
    );
  }

  /**
   * `errorType`, `kind`: what the failed call was marked with. MCP spans say `tool_error` for an
   * `isError` result (the MCP conventions); the client reads the server's text only.
   */
  function expectAttempts(tools: ReceivedSpan[], errorType = '503', kind = 'transient'): void {
    expect(tools).to.have.length(2);
    const failed = tools.find((span) => span.attributes['error.type'] === errorType);
    const attempt = tools.find((span) => span.attributes['tool.call.attempt'] === 2);
    expect(failed, 'the failed call').to.not.equal(undefined);
    expect(attempt, 'the attempt').to.not.equal(undefined);
    expect(failed!.statusCode).to.equal(2);
    expect(failed!.attributes['tool.call.attempt']).to.equal(undefined);
    expect(failed!.links ?? []).to.deep.equal([]);
    expect(attempt!.statusCode).to.not.equal(2);
    expect(attempt!.attributes['error.type']).to.equal(undefined);
    expect(failed!.attributes['tool.error_kind']).to.equal(kind);
    expect(attempt!.attributes['tool.call.recovered_error_type']).to.equal(errorType);
    expect(attempt!.attributes['tool.call.recovered_error_kind']).to.equal(kind);
    expect(attempt!.links).to.deep.equal([
      { traceId: failed!.traceId, spanId: failed!.spanId, attributes: { 'tool.call.attempt': 1 } },
    ]);
  }

  function expectNoAttempts(tools: ReceivedSpan[]): void {
    expect(tools).to.have.length(2);
    expect(tools.filter((span) => span.statusCode === 2)).to.have.length(1);
    for (const span of tools) {
      expect(span.attributes['tool.call.attempt']).to.equal(undefined);
      expect(span.attributes['tool.call.recovered_error_type']).to.equal(undefined);
      expect(span.links ?? []).to.deep.equal([]);
    }
  }

  for (const framework of FRAMEWORKS) {
    // MCP: the client's span, `tool_error` for the server's error result; its server's span is checked apart.
    const kind = framework === 'mcp' ? 3 : undefined;
    const failure = framework === 'mcp' ? (['tool_error', 'tool_error'] as const) : ([] as const);
    describe(framework, () => {
      it('a 503, then a success with the same arguments: two spans linked as attempts, the failure recovered', () => {
        expectAttempts(toolSpans(framework, 'retry', kind), ...failure);
      });

      it('a call with other arguments after the failure is not an attempt', () => {
        expectNoAttempts(toolSpans(framework, 'other', kind));
      });

      it('two parallel calls with the same arguments are not attempts of each other', () => {
        expectNoAttempts(toolSpans(framework, 'parallel', kind));
      });
    });
  }

  it("mcp: the server's spans are attempts on their side too", () => {
    // The server saw the thrown error: its finer type is in tool.error_detail_type.
    expectAttempts(toolSpans('mcp', 'retry', 2), 'tool_error', 'transient');
    expectNoAttempts(toolSpans('mcp', 'other', 2));
  });

  it('no argument value and no digest on any span', () => {
    for (const span of spans.filter((s) => s.attributes['gen_ai.tool.name'] !== undefined)) {
      const text = JSON.stringify([span.attributes, span.links ?? []]);
      expect(text).to.not.match(/Paris|Lyon|Rome/);
    }
  });

  /** `tool.errors` minus `tool.recovered_errors`, by tool and kind: the failures that stayed. */
  function stayed(): Record<string, number> {
    const sums: Record<string, number> = {};
    for (const point of points) {
      const sign = point.metric === 'tool.errors' ? 1 : point.metric === 'tool.recovered_errors' ? -1 : 0;
      if (sign === 0) continue;
      const key = `${String(point.attributes['gen_ai.tool.name'])} ${String(point.attributes['tool.error_kind'])}`;
      sums[key] = (sums[key] ?? 0) + sign * point.value;
    }
    return sums;
  }

  it('metrics: the recovered failures are counted, and the failures that stayed leave them out', () => {
    const recovered = points.filter((point) => point.metric === 'tool.recovered_errors');
    // One per framework (the MCP server's spans are not counted, as in tool.errors).
    expect(recovered).to.have.deep.members([
      {
        metric: 'tool.recovered_errors',
        attributes: { 'gen_ai.tool.name': 'forecast', 'error.type': '503', 'tool.error_kind': 'transient' },
        value: 3,
      },
      {
        metric: 'tool.recovered_errors',
        attributes: {
          'gen_ai.tool.name': 'forecast',
          'error.type': 'tool_error',
          'tool.error_kind': 'tool_error',
        },
        value: 1,
      },
    ]);
    expect(stayed()).to.deep.equal({
      'forecast transient': 0,
      'forecast tool_error': 0,
      'weather transient': 6,
      'weather tool_error': 2,
    });
  });

  it('metrics: the attempts are on the duration histogram, with tool.call.attempt', () => {
    const attempts = points.filter(
      (point) =>
        point.metric === 'gen_ai.execute_tool.duration' &&
        point.attributes['tool.call.attempt'] !== undefined,
    );
    expect(attempts.every((point) => point.attributes['gen_ai.tool.name'] === 'forecast')).to.equal(true);
    expect(attempts.every((point) => point.attributes['tool.call.attempt'] === 2)).to.equal(true);
    expect(attempts.reduce((sum, point) => sum + point.value, 0)).to.equal(4);
  });
}
