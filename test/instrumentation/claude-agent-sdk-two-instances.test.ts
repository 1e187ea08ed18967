import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  claudeCliEnv,
  startFakeAnthropicApi,
  type FakeAnthropicApi,
  type MessagesRequest,
} from '../helpers/fake-anthropic-api';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { runCommand, type NodeRun } from '../helpers/run-node';

/**
 * Each ToolInstrumentation keeps its own Claude Agent SDK state: two instances, each with its own
 * tracer provider, patch the real SDK an ESM app imports (fixtures/claude-agent-two-instances.mjs,
 * in a child process, driving the real CLI against a fake Messages API). As with LangChain, a call
 * gets one span: both enabled, the instance whose wrapper the app calls first (the one that
 * patched last) makes it and the other adds none; with one disabled, the other makes it.
 */

const FIXTURE = join(__dirname, 'fixtures', 'claude-agent-two-instances.mjs');
const SPAN_STATUS_UNSET = 0;
const SPAN_STATUS_ERROR = 2;
const PHASES = [
  'both',
  'first disabled',
  'first enabled again, second disabled',
  'second enabled again',
  'both enabled, a tool making a query',
  'both disabled',
];
const NESTED_PROMPT = 'a query of an in-process tool';

interface ToolSpan {
  name: string;
  callId: string;
  errorType?: string;
  status: number;
}

type Report = Record<string, { read: string[]; first: ToolSpan[]; second: ToolSpan[] }>;

/** Bash exiting 3. */
function bash(id: string) {
  return {
    call: { type: 'tool_use' as const, id, name: 'Bash', input: { command: 'exit 3', description: 'fail' } },
    span: { name: 'execute_tool Bash', callId: id, errorType: 'tool_error', status: SPAN_STATUS_ERROR },
  };
}

/** The in-process tool throwing on a 503. */
function fetch503(id: string) {
  return {
    call: { type: 'tool_use' as const, id, name: 'mcp__local__fetch_status', input: { path: '/503' } },
    span: {
      name: 'execute_tool mcp__local__fetch_status',
      callId: id,
      errorType: '503',
      status: SPAN_STATUS_ERROR,
    },
  };
}

/** The in-process tool that runs the query of NESTED_PROMPT. */
function ask(id: string) {
  return {
    call: { type: 'tool_use' as const, id, name: 'mcp__local__ask', input: {} },
    span: {
      name: 'execute_tool mcp__local__ask',
      callId: id,
      status: SPAN_STATUS_UNSET,
    },
  };
}

const NESTED = bash('toolu_nested_bash');
const ASKING = ask('toolu_ask');

/** The calls the model makes, one a turn, by the query's prompt. */
function callsOf(prompt: string) {
  if (prompt === NESTED_PROMPT) return [NESTED];
  if (prompt === 'phase both enabled, a tool making a query') return [ASKING];
  const index = PHASES.findIndex((phase) => prompt === `phase ${phase}`);
  return [bash(`toolu_${index}_bash`), fetch503(`toolu_${index}_fetch`)];
}

/** The prompt of a request from the CLI: the text of its first message. */
function promptOf(request: MessagesRequest): string {
  const content = request.messages[0]?.content;
  if (typeof content === 'string') return content;
  const texts = (content as { type: string; text?: string }[]).filter((block) => block.type === 'text');
  return texts.map((block) => block.text).find((text) => !text?.startsWith('<')) ?? '';
}

describe('two ToolInstrumentation instances on the Claude Agent SDK (real SDK and CLI, fake Messages API)', function () {
  this.timeout(240_000);
  let flaky: FlakyServer;
  let api: FakeAnthropicApi;
  let home: string;
  let run: NodeRun;
  let report: Report;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'claude-two-instances-'));
    flaky = await startFlakyServer();
    api = await startFakeAnthropicApi(
      (request) => request.tools?.some((tool) => tool.name === 'Bash') ?? false,
      (request: MessagesRequest) => {
        const step = request.messages.filter((message) => message.role === 'assistant').length;
        return [callsOf(promptOf(request))[step]?.call ?? { type: 'text', text: 'done' }];
      },
    );
    run = await runCommand(
      process.execPath,
      ['--import', 'tsx', FIXTURE],
      {
        FLAKY_URL: flaky.url,
        AGENT_CWD: home,
        ...claudeCliEnv(api, home),
      },
      { killAfterMs: 180_000 },
    );
    expect(run.code, `${run.stderr}\n${run.stdout}`).to.equal(0);
    report = JSON.parse(run.stdout.trim().split('\n').pop()!) as Report;
  });
  after(async () => {
    await api?.close();
    await flaky?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** What each provider got in `phase`, after checking that the app read each call's result. */
  function spansIn(phase: string): { first: ToolSpan[]; second: ToolSpan[] } {
    const results = callsOf(`phase ${phase}`).map(
      ({ call }) => `${call.id} is_error=${call !== ASKING.call}`,
    );
    expect(report[phase]!.read, 'the tool results the app read').to.deep.equal(results);
    return { first: report[phase]!.first, second: report[phase]!.second };
  }

  /** The spans one instance makes for the calls of `phase`. */
  function spansOf(phase: string): ToolSpan[] {
    return callsOf(`phase ${phase}`).map(({ span }) => span);
  }

  it('both enabled: one span per call, through the provider of the instance that patched last', () => {
    expect(spansIn('both')).to.deep.equal({ first: [], second: spansOf('both') });
  });

  it("the first disabled: the second's provider gets every span, the first's none", () => {
    expect(spansIn('first disabled')).to.deep.equal({ first: [], second: spansOf('first disabled') });
  });

  it("the first enabled again and the second disabled: the first's provider gets every span", () => {
    const phase = 'first enabled again, second disabled';
    expect(spansIn(phase)).to.deep.equal({ first: spansOf(phase), second: [] });
  });

  it('both enabled again: still one span per call', () => {
    expect(spansIn('second enabled again')).to.deep.equal({
      first: [],
      second: spansOf('second enabled again'),
    });
  });

  it("a query an in-process tool makes while the app's query waits is traced too, once", () => {
    expect(spansIn('both enabled, a tool making a query')).to.deep.equal({
      first: [],
      // The tool's query ends before the tool does.
      second: [NESTED.span, ASKING.span],
    });
  });

  it('both disabled: no spans, the app reads the same results', () => {
    expect(spansIn('both disabled')).to.deep.equal({ first: [], second: [] });
  });
});
