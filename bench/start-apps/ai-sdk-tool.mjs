// The ES module twin of ai-sdk-tool.cjs, for --import.
import './report-at-exit.cjs';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { scriptedModel } from './ai-sdk-model.cjs';

await generateText({
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
