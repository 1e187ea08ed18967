// The ES module twin of langgraph-tool.cjs, for --import.
import './report-at-exit.cjs';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { runAgent } from './langgraph-agent.cjs';

await runAgent({ createReactAgent, BaseChatModel, AIMessage, tool, z });
