import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  claudeCliEnv,
  startFakeAnthropicApi,
  type FakeAnthropicApi,
  type MessagesRequest,
  type ScriptedBlock,
} from '../helpers/fake-anthropic-api';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import {
  startOtlpJsonReceiver,
  type OtlpJsonReceiver,
  type ReceivedSpan,
} from '../helpers/otlp-json-receiver';
import { buildRegisterBundles, type RegisterBundles } from '../helpers/register-bundles';
import { runNode, type NodeRun } from '../helpers/run-node';

/**
 * The real Claude Agent SDK and its real bundled Claude Code CLI (a native binary the SDK starts
 * as a child process), driven by a local fake of the Anthropic Messages API whose scripted model
 * calls tools that fail for real: Bash exiting 3, Read of a missing file, Write without
 * permission, and in-process MCP tools (`createSdkMcpServer` + `tool()`) calling a 127.0.0.1 API
 * that answers 503, one throwing, one returning `isError`. The app runs under the register as
 * users run an ESM app (`node --import otel-tool-errors/register`; the SDK is ESM only) and
 * exports OTLP/JSON to a receiver on 127.0.0.1.
 */

const FIXTURE = join(__dirname, 'fixtures', 'claude-agent.mjs');
const SPAN_STATUS_ERROR = 2;
const SPAN_STATUS_UNSET = 0;

/** The agent's calls, one a turn, then a closing text. */
function script(cwd: string): ScriptedBlock[] {
  return [
    {
      type: 'tool_use',
      id: 'toolu_bash_fail',
      name: 'Bash',
      input: { command: 'echo down >&2; exit 3', description: 'fail' },
    },
    {
      type: 'tool_use',
      id: 'toolu_read_missing',
      name: 'Read',
      input: { file_path: join(cwd, 'missing.txt') },
    },
    {
      type: 'tool_use',
      id: 'toolu_write_denied',
      name: 'Write',
      input: { file_path: join(cwd, 'out.txt'), content: 'x' },
    },
    { type: 'tool_use', id: 'toolu_fetch_503', name: 'mcp__local__fetch_status', input: { path: '/503' } },
    { type: 'tool_use', id: 'toolu_lookup_503', name: 'mcp__local__lookup', input: { path: '/503' } },
    {
      type: 'tool_use',
      id: 'toolu_bash_ok',
      name: 'Bash',
      input: { command: 'echo fine', description: 'ok' },
    },
  ];
}

const SLEEP: ScriptedBlock = {
  type: 'tool_use',
  id: 'toolu_sleep',
  name: 'Bash',
  input: { command: 'node -e "setTimeout(() => {}, 30000)"', description: 'wait' },
};

const REMOVE: ScriptedBlock = {
  type: 'tool_use',
  id: 'toolu_rm_refused',
  name: 'Bash',
  input: { command: 'rm -rf cache', description: 'clean up' },
};

const EXPECTED_OUTPUT = [
  'iterator: [object AsyncGenerator], the same each time: true',
  'system init',
  'tool_use toolu_bash_fail Bash',
  'tool_result toolu_bash_fail is_error=true Exit code 3',
  'tool_use toolu_read_missing Read',
  'tool_result toolu_read_missing is_error=true File does not exist. Note: your current ',
  'tool_use toolu_write_denied Write',
  'system permission_denied',
  'tool_result toolu_write_denied is_error=true Claude requested permissions to write to',
  'tool_use toolu_fetch_503 mcp__local__fetch_status',
  'tool_result toolu_fetch_503 is_error=true GET /503 failed',
  'tool_use toolu_lookup_503 mcp__local__lookup',
  'tool_result toolu_lookup_503 is_error=true upstream answered 503',
  'tool_use toolu_bash_ok Bash',
  'tool_result toolu_bash_ok is_error=false fine',
  'assistant text',
  'result success',
  'system init',
  'tool_use toolu_rm_refused Bash',
  'tool_result toolu_rm_refused is_error=true deleting files needs a human',
  'assistant text',
  'result success',
  'system init',
  'tool_use toolu_sleep Bash',
  "tool_result toolu_sleep is_error=true The user doesn't want ",
  'user text',
  'result error_during_execution',
  'query failed: Claude Code returned an error result',
  'interrupt: done',
];

/** An installed copy of the SDK: its version, and the folder whose node_modules has it (else the root's). */
interface SdkCopy {
  version: string;
  folder?: string;
}

// The version matrix (scripts/version-matrix.mjs) runs this spec on the release installed in
// VERSION_MATRIX_DIR instead.
const matrixFolder = process.env.VERSION_MATRIX_DIR;
const SDK_COPIES: SdkCopy[] = matrixFolder
  ? [{ version: sdkVersionIn(matrixFolder), folder: matrixFolder }]
  : [
      { version: '0.3.332' },
      // The lowest supported (see test-compat/claude-agent-sdk-lowest/package.json).
      { version: '0.3.302', folder: join(__dirname, '..', '..', 'test-compat', 'claude-agent-sdk-lowest') },
    ];

function sdkVersionIn(folder: string): string {
  const packageJson = join(folder, 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'package.json');
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

for (const copy of SDK_COPIES) describeClaudeAgentSdk(copy);

function describeClaudeAgentSdk({ version, folder }: SdkCopy): void {
  // The app imports the SDK by its name; a hook makes that name resolve from `folder`.
  const nodeArgs = folder ? ['--import', join(__dirname, 'fixtures', 'claude-agent-sdk-from.mjs')] : [];
  const copyEnv: Record<string, string> = folder ? { CLAUDE_AGENT_SDK_FROM: folder } : {};

  describe(`Claude Agent SDK adapter (real SDK ${version} and its CLI, fake Messages API, the register)`, function () {
    this.timeout(180_000);
    let bundles: RegisterBundles;
    let flaky: FlakyServer;
    let api: FakeAnthropicApi;
    let receiver: OtlpJsonReceiver;
    let home: string;
    let plain: NodeRun;
    let registered: NodeRun;
    let spans: ReceivedSpan[];

    before(async () => {
      const root = folder ?? join(__dirname, '..', '..');
      const packageJson = join(root, 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'package.json');
      expect(JSON.parse(readFileSync(packageJson, 'utf8')).version).to.equal(version);
      home = mkdtempSync(join(tmpdir(), 'claude-agent-'));
      const calls = script(home);
      bundles = await buildRegisterBundles();
      flaky = await startFlakyServer();
      receiver = await startOtlpJsonReceiver();
      // The agent's requests offer Bash; the step is the number of turns the agent has taken.
      api = await startFakeAnthropicApi(
        (request) => request.tools?.some((tool) => tool.name === 'Bash') ?? false,
        (request: MessagesRequest) => {
          const step = request.messages.filter((message) => message.role === 'assistant').length;
          if (JSON.stringify(request.messages[0]).includes('wait for it')) {
            return [step === 0 ? SLEEP : { type: 'text', text: 'stopped' }];
          }
          if (JSON.stringify(request.messages[0]).includes('clean up the disk')) {
            return [step === 0 ? REMOVE : { type: 'text', text: 'left as it is' }];
          }
          return [calls[step] ?? { type: 'text', text: 'all checked' }];
        },
      );
      const env = {
        ...copyEnv,
        FLAKY_URL: flaky.url,
        AGENT_CWD: home,
        ...claudeCliEnv(api, home),
      };
      plain = await runNode(nodeArgs, FIXTURE, env);
      registered = await runNode(['--import', bundles.esm, ...nodeArgs], FIXTURE, {
        ...env,
        OTEL_SERVICE_NAME: 'claude-agent-test',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      spans = receiver.spans();
    });
    after(async () => {
      await receiver?.close();
      await api?.close();
      await flaky?.close();
      bundles?.dispose();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it("leaves the app's output unchanged: the same messages, in order, from the SDK's own iterator", () => {
      expect(plain.code, plain.stderr).to.equal(0);
      expect(plain.stdout.trimEnd().split('\n')).to.deep.equal(EXPECTED_OUTPUT);
      expect(registered).to.deep.equal(plain);
    });

    function toolSpan(callId: string): ReceivedSpan {
      const found = spans.filter((span) => span.attributes['gen_ai.tool.call.id'] === callId);
      expect(found, `spans: ${JSON.stringify(spans.map((span) => span.name))}`).to.have.length(1);
      return found[0]!;
    }

    function errorOf(span: ReceivedSpan) {
      return {
        name: span.name,
        type: span.attributes['error.type'],
        kind: span.attributes['tool.error_kind'],
        executed: span.attributes['tool.error_executed'],
        status: span.statusCode,
      };
    }

    it('one execute_tool span per call, a child of the span active around query()', () => {
      const run = spans.filter((span) => span.name === 'agent run');
      expect(run).to.have.length(1);
      const tools = spans.filter(
        (span) =>
          span.attributes['gen_ai.operation.name'] === 'execute_tool' &&
          !['toolu_sleep', 'toolu_rm_refused'].includes(span.attributes['gen_ai.tool.call.id'] as string),
      );
      expect(tools.map((span) => span.name)).to.have.members([
        'execute_tool Bash',
        'execute_tool Read',
        'execute_tool Write',
        'execute_tool mcp__local__fetch_status',
        'execute_tool mcp__local__lookup',
        'execute_tool Bash',
      ]);
      for (const span of tools) {
        expect(span.traceId).to.equal(run[0]!.traceId);
        expect(span.parentSpanId).to.equal(run[0]!.spanId);
      }
    });

    it('a built-in tool that failed: Bash exiting non-zero, Read of a missing file', () => {
      expect(errorOf(toolSpan('toolu_bash_fail'))).to.deep.equal({
        name: 'execute_tool Bash',
        type: 'tool_error',
        kind: 'tool_error',
        executed: true,
        status: SPAN_STATUS_ERROR,
      });
      expect(errorOf(toolSpan('toolu_read_missing'))).to.deep.equal({
        name: 'execute_tool Read',
        type: 'tool_error',
        kind: 'tool_error',
        executed: true,
        status: SPAN_STATUS_ERROR,
      });
    });

    it('a call the permission mode refused (no one to ask): denied, no failure', () => {
      const span = toolSpan('toolu_write_denied');
      expect(errorOf(span)).to.deep.equal({
        name: 'execute_tool Write',
        type: undefined,
        kind: undefined,
        executed: undefined,
        status: SPAN_STATUS_UNSET,
      });
      expect(span.attributes['tool.call.outcome']).to.equal('denied');
      expect(span.statusMessage ?? '').to.equal('');
    });

    it("a call the app's canUseTool denied: denied, no failure, nothing of the refusal's text", () => {
      const span = toolSpan('toolu_rm_refused');
      expect(errorOf(span)).to.deep.equal({
        name: 'execute_tool Bash',
        type: undefined,
        kind: undefined,
        executed: undefined,
        status: SPAN_STATUS_UNSET,
      });
      expect(span.attributes['tool.call.outcome']).to.equal('denied');
      expect(JSON.stringify(span)).to.not.include('needs a human');
      const run = spans.filter((candidate) => candidate.name === 'agent refused');
      expect(run).to.have.length(1);
      expect(span.parentSpanId).to.equal(run[0]!.spanId);
    });

    it("an in-process tool that threw: the real error (a 503 Response as the cause), not the SDK's text", () => {
      expect(errorOf(toolSpan('toolu_fetch_503'))).to.deep.equal({
        name: 'execute_tool mcp__local__fetch_status',
        type: '503',
        kind: 'transient',
        executed: true,
        status: SPAN_STATUS_ERROR,
      });
    });

    it('an in-process MCP tool that returned isError: tool_error, executed', () => {
      expect(errorOf(toolSpan('toolu_lookup_503'))).to.deep.equal({
        name: 'execute_tool mcp__local__lookup',
        type: 'tool_error',
        kind: 'tool_error',
        executed: true,
        status: SPAN_STATUS_ERROR,
      });
    });

    it('a call the app interrupted while it ran: canceled, not executed; interrupt() still works', () => {
      const span = toolSpan('toolu_sleep');
      expect(errorOf(span)).to.deep.equal({
        name: 'execute_tool Bash',
        type: 'canceled',
        kind: 'canceled',
        executed: false,
        status: SPAN_STATUS_ERROR,
      });
      const run = spans.filter((candidate) => candidate.name === 'agent interrupted');
      expect(run).to.have.length(1);
      expect(span.parentSpanId).to.equal(run[0]!.spanId);
    });

    it('a call that succeeded stays OK, with no error attributes', () => {
      expect(errorOf(toolSpan('toolu_bash_ok'))).to.deep.equal({
        name: 'execute_tool Bash',
        type: undefined,
        kind: undefined,
        executed: undefined,
        status: SPAN_STATUS_UNSET,
      });
    });
  });
}
