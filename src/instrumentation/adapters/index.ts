import type { FrameworkAdapter } from './adapter';
import { aiSdkMcpAdapter } from './ai-sdk-mcp';
import { aiSdkV6Adapter } from './ai-sdk-v6';
import { aiSdkV7Adapter } from './ai-sdk-v7';
import { claudeAgentSdkAdapter } from './claude-agent-sdk';
import { googleAdkAdapter } from './google-adk';
import { langchainAdapter } from './langchain';
import { llamaindexAdapter } from './llamaindex';
import { mastraAdapter } from './mastra';
import { mcpAdapter } from './mcp';
import { openaiAgentsAdapter } from './openai-agents';

/** Every framework the instrumentation knows, one adapter file each. */
export const ADAPTERS: readonly FrameworkAdapter[] = [
  mcpAdapter,
  langchainAdapter,
  aiSdkV6Adapter,
  aiSdkV7Adapter,
  aiSdkMcpAdapter,
  openaiAgentsAdapter,
  mastraAdapter,
  googleAdkAdapter,
  llamaindexAdapter,
  claudeAgentSdkAdapter,
];

/** The names `disabledFrameworks` accepts. */
export const TOOL_FRAMEWORK_NAMES: readonly string[] = Object.freeze(ADAPTERS.map((adapter) => adapter.name));
