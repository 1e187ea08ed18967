'use strict';
// An AI SDK agent's start: the framework loads, the model asks for one tool, the tool runs.
require('./report-at-exit.cjs');
const { generateText, jsonSchema, stepCountIs, tool } = require('ai');
const { MockLanguageModelV3 } = require('ai/test');
const { scriptedModel } = require('./ai-sdk-model.cjs');

generateText({
  model: scriptedModel(MockLanguageModelV3),
  tools: {
    lookup: tool({
      description: 'Looks up',
      inputSchema: jsonSchema({ type: 'object' }),
      execute: async () => 'found',
    }),
  },
  prompt: 'look up',
  stopWhen: stepCountIs(2),
});
