import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Span, Tracer } from '@opentelemetry/api';
import type { BaseToolWithCall, ToolCall } from '@llamaindex/core/llms';
import { expect } from 'chai';
import { z } from 'zod';
import { expectExecuteToolSpan, underAgentSpan } from '../helpers/agent-span';
import { describeAdapterConformance } from '../helpers/adapter-conformance';
import { fetchPathTool, loadLlamaIndex, scriptedLlm, type LlamaIndex } from '../helpers/llamaindex';
import { useAdapterTestBed } from '../helpers/test-bed';
import { errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches it.
const load = createRequire(__filename);

/** Runs an agent (under a parent span) whose model calls `name(input)` once. */
async function runAgent(
  llama: LlamaIndex,
  tracer: Tracer,
  tools: BaseToolWithCall[],
  name: string,
  input: ToolCall['input'],
) {
  const { llm, seen } = scriptedLlm(llama, [{ id: 'call_1', name, input }]);
  const agent = llama.workflow.agent({ llm, tools });
  const { value: result, error, agent: parent } = await underAgentSpan(tracer, () => agent.run('go'));
  const toolMessage = seen[0] as
    { options?: { toolResult?: { result?: unknown; isError?: boolean } } } | undefined;
  return { result, error, parent, toolResult: toolMessage?.options?.toolResult };
}

describe('LlamaIndex adapter (@llamaindex/workflow agent() + MockLLM)', () => {
  const bed = useAdapterTestBed();
  let llama: LlamaIndex;
  let tools: BaseToolWithCall[];

  before(async function () {
    // Loading the framework takes seconds, more on a loaded machine.
    this.timeout(180_000);
    llama = loadLlamaIndex(load);
    tools = [
      fetchPathTool(llama, () => bed.server.url),
      llama.tool({
        name: 'locked_file',
        description: 'Reports failure with a { success: false } result',
        parameters: z.object({}),
        execute: () => ({ success: false, error: 'the file is locked by another process' }),
      }),
    ];
  });

  const runTool = (name: string, input: ToolCall['input'], agentTools = tools) =>
    runAgent(llama, bed.tracer, agentTools, name, input);

  const toolSpan = (name: string, parent: Span) =>
    expectExecuteToolSpan(bed.tracing, name, parent, { 'gen_ai.tool.call.id': 'call_1' });

  describeAdapterConformance({
    describesTool: true,
    async call({ name, description, input, execute }) {
      const conformanceTool = llama.tool({
        name,
        description,
        parameters: z.object({ path: z.string() }),
        execute,
      });
      const { parent, toolResult } = await runTool(name, { ...input }, [conformanceTool]);
      return { span: toolSpan(name, parent), answer: toolResult };
    },
    // The workflow hands the model the error as text, flagged as an error.
    expectFailureAnswer(toolResult, thrown) {
      const { isError, result } = toolResult as { isError?: boolean; result?: unknown };
      expect(isError).to.equal(true);
      expect(String(result)).to.include((thrown as Error).message);
    },
    // LlamaIndex's own escaping (untraced too) turns each double quote of a string result into a backslash.
    expectSuccessAnswer: (toolResult, returned) =>
      expect(toolResult).to.deep.include({ isError: false, result: returned.replaceAll('"', '\\') }),
  });

  it('classifies input that fails the schema as invalid_input, not executed', async () => {
    const before = bed.server.requestCount();
    const { parent, toolResult } = await runTool('fetch_path', { path: 42 });
    expect(toolResult?.isError).to.equal(true);
    expect(bed.server.requestCount()).to.equal(before);
    expect(errorOf(toolSpan('fetch_path', parent))).to.deep.equal(
      unexecutedFailure('ZodError', 'invalid_input'),
    );
  });

  it('marks a returned { success: false } result as tool_error', async () => {
    const { parent, toolResult } = await runTool('locked_file', {});
    expect(toolResult?.isError).to.equal(false);
    expect(errorOf(toolSpan('locked_file', parent))).to.deep.equal(
      executedFailure('tool_error', 'tool_error'),
    );
  });

  it('keeps the tool: its own call property and arity', () => {
    const [fetchPath] = tools as unknown as Array<{ call: (...args: unknown[]) => unknown }>;
    expect(Object.prototype.hasOwnProperty.call(fetchPath, 'call')).to.equal(true);
    expect(fetchPath!.call.length).to.equal(1);
  });

  it('stops tracing on disable and traces again on enable', async () => {
    bed.instrumentation.disable();
    await runTool('fetch_path', { path: '/500' });
    expect(bed.tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(0);
    bed.instrumentation.enable();
    const { parent } = await runTool('fetch_path', { path: '/500' });
    expect(errorOf(toolSpan('fetch_path', parent))).to.include({ type: '500' });
  });

  // The same instrumentation as above: each one made leaves module hooks behind that slow every
  // later require of the suite.
  describe('@llamaindex/workflow 1.1.22 with core 0.6.20, the lowest supported', () => {
    let lowest: LlamaIndex;
    let lowestTools: BaseToolWithCall[];

    before(async function () {
      this.timeout(180_000);
      // The local package test-compat/llamaindex-lowest nests this copy under its own node_modules
      // (an npm alias at the root could not: 1.1.22 pins core 0.6.20 as a peer). Installed under its
      // real name, require-in-the-middle patches it like any app's copy, by its own version.
      // @llamaindex/env then warns that llamaindex was already imported: harmless here, each copy's
      // agents are built from its own tools and model.
      const root = dirname(load.resolve('llamaindex-lowest/package.json'));
      const versionOf = (name: string): string =>
        JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
      expect(versionOf('@llamaindex/workflow')).to.equal('1.1.22');
      expect(versionOf('@llamaindex/core')).to.equal('0.6.20');
      lowest = loadLlamaIndex(createRequire(join(root, 'package.json')));
      lowestTools = [fetchPathTool(lowest, () => bed.server.url)];
    });

    const run = (path: string) => runAgent(lowest, bed.tracer, lowestTools, 'fetch_path', { path });

    for (const status of [500, 503]) {
      it(`a tool failing on a real HTTP ${status}: error.type=${status}, status ERROR; the model still gets the error text`, async () => {
        const { parent, toolResult } = await run(`/${status}`);
        expect(toolResult).to.include({ isError: true });
        expect(String(toolResult?.result)).to.include(`GET /${status} failed`);
        expect(errorOf(toolSpan('fetch_path', parent))).to.deep.equal(
          executedFailure(String(status), 'transient'),
        );
      });
    }

    it('a success stays unmarked', async () => {
      const { parent, toolResult } = await run('/ok');
      expect(toolResult?.isError).to.equal(false);
      expect(errorOf(toolSpan('fetch_path', parent)).type).to.equal(undefined);
    });
  });
});
