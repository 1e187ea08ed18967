import type { ModuleDefinitionShape } from '../loader-hook-include';

/**
 * Each framework's module definitions as its adapter declares them (a module, whether its entry is
 * patched, the files inside it that are), for a start that must know them before any adapter is
 * loaded (src/register/hooked-modules.ts). A spec pins them to the adapters' own.
 */
export const FRAMEWORK_MODULES: Readonly<Record<string, readonly ModuleDefinitionShape[]>> = {
  mcp: [
    {
      name: '@modelcontextprotocol/sdk',
      files: [
        '@modelcontextprotocol/sdk/dist/esm/client/index.js',
        '@modelcontextprotocol/sdk/dist/cjs/client/index.js',
        '@modelcontextprotocol/sdk/dist/esm/server/index.js',
        '@modelcontextprotocol/sdk/dist/cjs/server/index.js',
        '@modelcontextprotocol/sdk/dist/esm/server/mcp.js',
        '@modelcontextprotocol/sdk/dist/cjs/server/mcp.js',
      ],
    },
    { name: '@modelcontextprotocol/client', entryPatched: true },
    { name: '@modelcontextprotocol/server', entryPatched: true },
  ],
  langchain: [
    {
      name: '@langchain/core',
      files: [
        '@langchain/core/dist/tools/index.cjs',
        '@langchain/core/dist/tools/index.js',
        '@langchain/core/dist/callbacks/manager.cjs',
        '@langchain/core/dist/callbacks/manager.js',
      ],
    },
    {
      name: '@langchain/langgraph',
      files: [
        '@langchain/langgraph/dist/errors.cjs',
        '@langchain/langgraph/dist/errors.js',
        '@langchain/langgraph/dist/constants.cjs',
        '@langchain/langgraph/dist/constants.js',
      ],
    },
  ],
  'ai-sdk-v6': [{ name: 'ai', entryPatched: true }],
  'ai-sdk-v7': [{ name: 'ai', entryPatched: true }],
  'ai-sdk-mcp': [{ name: '@ai-sdk/mcp', entryPatched: true }],
  'openai-agents': [
    {
      name: '@openai/agents-core',
      files: [
        '@openai/agents-core/dist/tool.js',
        '@openai/agents-core/dist/tool.mjs',
        '@openai/agents-core/dist/runner/toolExecution.js',
        '@openai/agents-core/dist/runner/toolExecution.mjs',
      ],
    },
  ],
  mastra: [
    {
      name: '@mastra/core',
      files: ['@mastra/core/dist/tools/index.cjs', '@mastra/core/dist/tools/index.js'],
    },
  ],
  'google-adk': [
    {
      name: '@google/adk',
      files: ['@google/adk/dist/cjs/tools/function_tool.js', '@google/adk/dist/esm/tools/function_tool.js'],
    },
  ],
  llamaindex: [{ name: '@llamaindex/workflow', entryPatched: true }],
  'claude-agent-sdk': [{ name: '@anthropic-ai/claude-agent-sdk', entryPatched: true }],
};

/**
 * The process-global registries a framework reads its integrations from, which an adapter fills at
 * the start (AI SDK 7's `registerTelemetry` array): their first read starts the register, whatever
 * name the framework was installed under, or bundled into the app.
 */
export const FRAMEWORK_GLOBALS: readonly string[] = ['AI_SDK_TELEMETRY_INTEGRATIONS'];
