import { expect } from 'chai';
import { refusedPort, startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import {
  startOtlpJsonReceiver,
  type OtlpJsonReceiver,
  type ReceivedSpan,
} from '../helpers/otlp-json-receiver';
import { FRAMEWORKS, SHAPES, type Framework, type ShapeName } from './expectations';
import { installApp } from './installed-app';
import { inPool, runNode, type NodeRun } from './run-node';

/**
 * The whole pipeline, run as users run the package: every framework's app (apps/, one driver per
 * framework) in a child process under each set-up the README gives, exporting OTLP to one local
 * receiver, each tool failing for real against a server on 127.0.0.1. Each framework runs all its
 * shapes in one process per mode; each app also runs bare, and prints the same either way.
 */

interface Mode {
  /** Distinguishes the runs in the shared receiver (their service.name). */
  readonly id: string;
  readonly title: string;
  readonly nodeArgs: readonly string[];
  /** The app entry, which is also the bare run it must print the same as. */
  readonly entry: 'app.cjs' | 'app.mjs';
}

/** A way to start the app: `node <flag> <preload> <entry>`. */
const mode = (id: string, flag: string, preload: string, entry: Mode['entry'], title?: string): Mode => ({
  id,
  title: title ?? `node ${flag} ${preload} ${entry}`,
  nodeArgs: [flag, preload],
  entry,
});

const MODES: readonly Mode[] = [
  mode('require', '--require', 'otel-tool-errors/register', 'app.cjs'),
  mode('import', '--import', 'otel-tool-errors/register', 'app.mjs'),
  mode(
    'sdk-cjs',
    '--require',
    './setup-sdk.cjs',
    'app.cjs',
    'NodeSDK set-up, CommonJS (--require ./setup-sdk.cjs)',
  ),
  mode('sdk-esm', '--import', './setup-sdk.mjs', 'app.mjs', 'NodeSDK set-up, ESM (--import ./setup-sdk.mjs)'),
];

const SHAPE_NAMES = Object.keys(SHAPES) as ShapeName[];
/** Child processes at a time: the machine running the suite may have two cores. */
const POOL_SIZE = 3;
/** A run that hangs is killed, and its cells fail with its output. */
const KILL_AFTER_MS = 120_000;

const ERROR_ATTRIBUTES = [
  'error.type',
  'tool.error_kind',
  'tool.error_retryable',
  'tool.error_executed',
] as const;

const runKey = (framework: Framework, run: string) => `${framework}/${run}`;

function describeRun(run: NodeRun | undefined): string {
  if (!run) return 'the run did not happen';
  return `exit ${run.code ?? run.signal}\n--- stdout\n${run.stdout}--- stderr\n${run.stderr.slice(-3000)}`;
}

describe('the whole pipeline: every framework under every set-up, exported over OTLP', function () {
  const runs = new Map<string, NodeRun>();
  let receiver: OtlpJsonReceiver;
  let flaky: FlakyServer;
  let removeApp: (() => void) | undefined;

  before(async function () {
    this.timeout(900_000);
    const app = await installApp();
    removeApp = app.remove;
    flaky = await startFlakyServer();
    receiver = await startOtlpJsonReceiver();
    const appEnv = { FLAKY_URL: flaky.url, REFUSED_URL: `http://127.0.0.1:${await refusedPort()}/` };

    const tasks: Array<() => Promise<void>> = [];
    const plan = (framework: Framework, run: string, args: string[], env: Record<string, string> = {}) =>
      tasks.push(async () => {
        const allEnv = { ...appEnv, PIPELINE_FRAMEWORK: framework, ...env };
        runs.set(runKey(framework, run), await runNode(args, app.dir, allEnv, KILL_AFTER_MS));
      });
    for (const framework of FRAMEWORKS) {
      for (const entry of ['app.cjs', 'app.mjs']) plan(framework, entry, [entry]);
      for (const mode of MODES) {
        plan(framework, mode.id, [...mode.nodeArgs, mode.entry], {
          OTEL_SERVICE_NAME: runKey(framework, mode.id),
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          // The register's exit waits 1 s for a collector that has not answered; a loaded CI machine
          // can need longer to deliver to the receiver, which answers at once.
          OTEL_TOOL_ERRORS_EXIT_TIMEOUT: '5000',
        });
      }
    }
    await inPool(tasks, POOL_SIZE);
  });

  after(async () => {
    await receiver?.close();
    await flaky?.close();
    removeApp?.();
  });

  /** The spans of a cell's tool call, and the context every failure message shows. */
  function cellSpans(framework: Framework, mode: Mode, shape: ShapeName) {
    const all = receiver.spans();
    const service = runKey(framework, mode.id);
    const spans = all.filter((s) => s.serviceName === service && s.attributes['gen_ai.tool.name'] === shape);
    const children = all.filter((child) => spans.some((s) => s.spanId === child.parentSpanId));
    const context = `${JSON.stringify({ spans, children }, null, 1)}\n${describeRun(runs.get(service))}`;
    return { spans, context };
  }

  /** A span's error attributes and status against what it should carry (`undefined`: no error). */
  function expectAnswer(span: ReceivedSpan, expected: object | undefined, context: string) {
    if (expected) {
      const keys = Object.keys(expected);
      const actual = Object.fromEntries(keys.map((key) => [key, span.attributes[key]]));
      expect({ ...actual, status: span.statusCode }, context).to.deep.equal({ ...expected, status: 2 });
    } else {
      expect(
        ERROR_ATTRIBUTES.filter((key) => key in span.attributes),
        context,
      ).to.deep.equal([]);
      expect(span.statusCode, context).to.not.equal(2);
    }
  }

  /** The cell's one tool span carries the table's answer; the run's output is in every message. */
  function expectCell(framework: Framework, mode: Mode, shape: ShapeName) {
    if (framework === 'mcp') return expectMcpCell(mode, shape);
    if (framework === 'ai-sdk-mcp') return expectAiSdkMcpCell(mode, shape);
    const { spans, context } = cellSpans(framework, mode, shape);
    expect(spans, `one tool span for the call\n${context}`).to.have.length(1);
    expectAnswer(spans[0]!, SHAPES[shape].expected, context);
  }

  /**
   * MCP calls follow the MCP conventions: a CLIENT and a SERVER `tools/call` span in one trace, and
   * `error.type` `tool_error` on a failed call, the table's finer answer in `tool.error_detail_type`.
   * The server span, which sees the tool's own failure, carries the table's kind and flags; the
   * client sees only the `isError` result's text.
   */
  function expectMcpCell(mode: Mode, shape: ShapeName) {
    const { client, expected, context } = expectClientAndServerSpans('mcp', mode, shape, 3, 'CLIENT');
    expectAnswer(client, expected && { 'error.type': 'tool_error' }, context);
  }

  /**
   * One client-side span of `clientKind` and the MCP server's SERVER span, its child through the
   * trace context the client sent, with the table's answer (`tool_error`, the finer type beside it).
   */
  function expectClientAndServerSpans(
    framework: Framework,
    mode: Mode,
    shape: ShapeName,
    clientKind: number,
    clientTitle: string,
  ) {
    const { spans, context } = cellSpans(framework, mode, shape);
    const client = spans.filter((s) => s.kind === clientKind);
    const server = spans.filter((s) => s.kind === 2);
    expect(
      [client.length, server.length, spans.length],
      `one ${clientTitle} and one SERVER span\n${context}`,
    ).to.deep.equal([1, 1, 2]);
    expect(server[0]!.parentSpanId, `the server span is the client span's child\n${context}`).to.equal(
      client[0]!.spanId,
    );
    const { expected } = SHAPES[shape];
    const detail =
      expected && expected['error.type'] !== 'tool_error'
        ? { 'tool.error_detail_type': expected['error.type'] }
        : {};
    expectAnswer(server[0]!, expected && { ...expected, 'error.type': 'tool_error', ...detail }, context);
    return { client: client[0]!, expected, context };
  }

  /**
   * The AI SDK running `@ai-sdk/mcp` tools: one span on the client side, the AI SDK's
   * `execute_tool` span (no second `tools/call` span) with the MCP attributes, marked from the
   * `isError` result the client got; and the MCP server's SERVER span, its child through the trace
   * context the client sent, with the table's answer as in the MCP cells.
   */
  function expectAiSdkMcpCell(mode: Mode, shape: ShapeName) {
    const { client, expected, context } = expectClientAndServerSpans(
      'ai-sdk-mcp',
      mode,
      shape,
      1,
      'client-side',
    );
    expect(client.attributes['mcp.method.name'], context).to.equal('tools/call');
    if (!expected) return expectAnswer(client, undefined, context);
    // The client sees only the server's text, so its answer is the one that text gives.
    expect(client.statusCode, context).to.equal(2);
    expect(client.attributes['error.type'], context).to.be.a('string');
    expect(client.attributes['tool.error_kind'], context).to.be.a('string');
  }

  for (const framework of FRAMEWORKS) {
    describe(framework, () => {
      for (const entry of ['app.cjs', 'app.mjs']) {
        it(`bare node ${entry}: runs every shape`, () => {
          const run = runs.get(runKey(framework, entry));
          expect(run?.code, describeRun(run)).to.equal(0);
          const lines = run!.stdout.trimEnd().split('\n');
          expect(lines.map((line) => line.split(':')[0])).to.deep.equal(SHAPE_NAMES);
          expect(lines.at(-1), 'the success shape succeeds').to.match(/ok\\?":true/);
        });
      }

      for (const mode of MODES) {
        describe(mode.title, () => {
          it('exits 0 and prints byte for byte what the bare app prints', () => {
            const run = runs.get(runKey(framework, mode.id));
            expect(run?.code, describeRun(run)).to.equal(0);
            expect(run!.stdout).to.equal(runs.get(runKey(framework, mode.entry))?.stdout);
          });

          it('writes to stderr only what the bare app writes: no warning', () => {
            const run = runs.get(runKey(framework, mode.id));
            expect(run?.stderr, describeRun(run)).to.equal(runs.get(runKey(framework, mode.entry))?.stderr);
          });

          for (const shape of SHAPE_NAMES) {
            const { does, expected } = SHAPES[shape];
            const answer = expected ? `${expected['error.type']} ${expected['tool.error_kind']}` : 'no error';
            it(`${shape}: ${answer} (${does})`, () => expectCell(framework, mode, shape));
          }
        });
      }
    });
  }
});
