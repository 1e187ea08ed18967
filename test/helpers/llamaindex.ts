import type * as Workflow from '@llamaindex/workflow';
import type * as Tools from '@llamaindex/core/tools';
import type * as Mock from '@llamaindex/core/llms/mock';
import type {
  ChatResponse,
  ChatResponseChunk,
  LLMChatParamsNonStreaming,
  LLMChatParamsStreaming,
  ToolCall,
} from '@llamaindex/core/llms';
import * as semver from 'semver';
import { z } from 'zod';
import { installedVersion } from './installed-version';

/** LlamaIndex as the adapter's specs drive it: an installed copy, a scripted MockLLM, a failing tool. */

/** One installed copy of LlamaIndex: the workflow package and the core parts the specs use. */
export interface LlamaIndex {
  workflow: typeof Workflow;
  MockLLM: typeof Mock.MockLLM;
  tool: typeof Tools.tool;
  /** Whether MockLLM answers with the tool calls it is given (core 0.6.22 on). */
  mockCallsTools: boolean;
}

export function loadLlamaIndex(from: NodeJS.Require): LlamaIndex {
  return {
    workflow: from('@llamaindex/workflow'),
    MockLLM: (from('@llamaindex/core/llms/mock') as typeof Mock).MockLLM,
    tool: (from('@llamaindex/core/tools') as typeof Tools).tool,
    mockCallsTools: semver.gte(installedVersion(from, '@llamaindex/core/llms/mock'), '0.6.22'),
  };
}

/**
 * The framework's MockLLM, calling the scripted tools on its first turn and answering after. The
 * MockLLM of cores before 0.6.22 (which the version matrix runs too) cannot call tools: there the
 * first turn is the chunk later MockLLMs stream for the calls.
 */
export function scriptedLlm({ MockLLM, mockCallsTools }: LlamaIndex, calls: ToolCall[]) {
  const seen: unknown[] = [];
  class ScriptedLLM extends MockLLM {
    private turns = 0;
    override supportToolCall = true;
    override chat(params: LLMChatParamsStreaming): Promise<AsyncIterable<ChatResponseChunk>>;
    override chat(params: LLMChatParamsNonStreaming): Promise<ChatResponse>;
    override chat(
      params: LLMChatParamsStreaming | LLMChatParamsNonStreaming,
    ): Promise<AsyncIterable<ChatResponseChunk> | ChatResponse> {
      if (this.turns++ === 0) {
        if (mockCallsTools || !params.stream) return super.chat(params as LLMChatParamsStreaming);
        return Promise.resolve(
          (async function* () {
            yield { delta: '', raw: {}, options: { toolCall: calls } } as ChatResponseChunk;
          })(),
        );
      }
      seen.push(params.messages.at(-1));
      return super.chat({ ...params, tools: undefined } as LLMChatParamsStreaming);
    }
  }
  const llm = new ScriptedLLM({
    timeBetweenToken: 0,
    responseMessage: 'done',
    mockToolCallResponse: { toolCalls: calls },
  });
  return { llm, seen };
}

/** A tool that GETs a path on the test API and throws on a failed status, as tools do. */
export function fetchPathTool({ tool }: LlamaIndex, url: () => string) {
  const fetchPathInput = z.object({ path: z.string() });
  return tool({
    name: 'fetch_path',
    description: 'GETs a path on the test API',
    parameters: fetchPathInput,
    execute: async (input) => {
      // LlamaIndex only logs a warning when the input fails the schema, so the tool checks it.
      const { path } = fetchPathInput.parse(input);
      const res = await fetch(url() + path);
      if (!res.ok) throw new Error(`GET ${path} failed`, { cause: res });
      return res.text();
    },
  });
}
