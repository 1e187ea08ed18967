'use strict';
// A LangGraph agent's start: createReactAgent loads, its model asks for one tool, the tool runs.
require('./report-at-exit.cjs');
const { createReactAgent } = require('@langchain/langgraph/prebuilt');
const { BaseChatModel } = require('@langchain/core/language_models/chat_models');
const { AIMessage } = require('@langchain/core/messages');
const { tool } = require('@langchain/core/tools');
const { z } = require('zod');
const { runAgent } = require('./langgraph-agent.cjs');

runAgent({ createReactAgent, BaseChatModel, AIMessage, tool, z });
