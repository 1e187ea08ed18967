import { expect } from 'chai';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';

const REGISTRY = 'AI_SDK_TELEMETRY_INTEGRATIONS';

function registered(): unknown[] {
  return ((globalThis as Record<string, unknown>)[REGISTRY] as unknown[] | undefined) ?? [];
}

describe('ToolInstrumentation', () => {
  it('is an InstrumentationBase named otel-tool-errors that hooks every framework by default', () => {
    const instrumentation = new ToolInstrumentation({ enabled: false });
    expect(instrumentation.instrumentationName).to.equal('otel-tool-errors');
    expect(instrumentation.instrumentationVersion).to.match(/^\d+\.\d+\.\d+/);
    const names = instrumentation.getModuleDefinitions().map((module) => module.name);
    expect(names).to.include.members(['@modelcontextprotocol/sdk', '@langchain/core', 'ai']);
  });

  it('leaves the frameworks named in disabledFrameworks unhooked', () => {
    const instrumentation = new ToolInstrumentation({
      enabled: false,
      disabledFrameworks: ['mcp', 'ai-sdk-v7'],
    });
    const names = instrumentation.getModuleDefinitions().map((module) => module.name);
    expect(names.some((name) => name.includes('@modelcontextprotocol'))).to.equal(false);
    expect(names).to.include.members(['@langchain/core', 'ai']);
    const before = registered().length;
    instrumentation.enable();
    expect(registered().length, 'no AI SDK v7 integration registered').to.equal(before);
    instrumentation.disable();
  });

  it('registers its AI SDK v7 integration once per enable, whatever getModuleDefinitions does', () => {
    const before = registered().length;
    const instrumentation = new ToolInstrumentation();
    instrumentation.getModuleDefinitions();
    expect(registered().length).to.equal(before + 1);
    instrumentation.disable();
    expect(registered().length).to.equal(before);
  });

  it('rejects an unknown framework name with the list of known ones', () => {
    expect(() => new ToolInstrumentation({ disabledFrameworks: ['langchian'] })).to.throw(
      TypeError,
      /unknown framework "langchian" in disabledFrameworks; known: mcp, langchain/,
    );
  });
});
