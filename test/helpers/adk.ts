import type * as Adk from '@google/adk';

/**
 * A model (ADK's own extension point, `BaseLlm`) that calls `name(args)` once, as call `fc_1`,
 * then answers `done`. `adk` is the copy of `@google/adk` the caller loaded.
 */
export function scriptedLlm(adk: typeof Adk, name: string, args: Record<string, unknown>): Adk.BaseLlm {
  class ScriptedLlm extends adk.BaseLlm {
    private calls = 0;
    constructor() {
      super({ model: 'scripted' });
    }
    async *generateContentAsync(): AsyncGenerator<Adk.LlmResponse, void> {
      const first = this.calls++ === 0;
      yield {
        content: {
          role: 'model',
          parts: first ? [{ functionCall: { id: 'fc_1', name, args } }] : [{ text: 'done' }],
        },
      };
    }
    connect(): Promise<Adk.BaseLlmConnection> {
      return Promise.reject(new Error('live connections are not scripted'));
    }
  }
  return new ScriptedLlm();
}
