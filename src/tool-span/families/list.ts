import { AI_SDK } from './ai-sdk';
import { ANTHROPIC } from './anthropic';
import { DD_TRACE_MCP } from './dd-trace-mcp';
import type { SpanFamily } from './family';
import { GENAI } from './genai';
import { GENKIT } from './genkit';
import { GOOGLE_ADK } from './google-adk';
import { MASTRA } from './mastra';
import { MCP } from './mcp';
import { OPENINFERENCE } from './openinference';
import { OPENLLMETRY_LANGCHAIN } from './openllmetry-langchain';
import { OPENLLMETRY_MCP } from './openllmetry-mcp';
import { STRANDS } from './strands';
import { VOLTAGENT } from './voltagent';

/**
 * The span families the processor recognises. A span belongs to the first family that matches it,
 * so a family whose spans also match a more general one (Strands' `execute_tool` spans are GenAI
 * ones) comes before it.
 */
export const SPAN_FAMILIES: readonly SpanFamily[] = [
  MASTRA,
  MCP,
  STRANDS,
  GOOGLE_ADK,
  OPENLLMETRY_LANGCHAIN,
  ANTHROPIC,
  GENAI,
  AI_SDK,
  VOLTAGENT,
  DD_TRACE_MCP,
  OPENLLMETRY_MCP,
  OPENINFERENCE,
  GENKIT,
];
