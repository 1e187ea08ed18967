import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import { expect } from 'chai';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { loaderHookInclude } from '../../src/instrumentation/loader-hook-include';

/** An instrumentation as far as `loaderHookInclude` reads one. */
function definingInstrumentation(definitions: InstrumentationNodeModuleDefinition[]): object {
  return { getModuleDefinitions: () => definitions };
}

const patch = (exports: unknown) => exports;

describe('loaderHookInclude', () => {
  it("lists a package's entry where the definition patches it, and each patched file", () => {
    const file = new InstrumentationNodeModuleFile('pkg/dist/tool.mjs', ['*'], patch, () => undefined);
    const include = loaderHookInclude([
      definingInstrumentation([
        new InstrumentationNodeModuleDefinition('http', ['*'], patch),
        new InstrumentationNodeModuleDefinition('both', ['*'], patch, undefined, [
          new InstrumentationNodeModuleFile('both/lib/a.js', ['*'], patch, () => undefined),
        ]),
        new InstrumentationNodeModuleDefinition('pkg', ['*'], undefined, undefined, [file]),
      ]),
    ]);
    expect(include.map(String)).to.deep.equal([
      'http',
      'both',
      String(/\/node_modules\/both\/lib\/a\.js$/),
      String(/\/node_modules\/pkg\/dist\/tool\.mjs$/),
    ]);
  });

  it('leaves out the entries of packages whose files are patched: their `export *` trees are not read', () => {
    const include = loaderHookInclude([new ToolInstrumentation({ enabled: false })]);
    const entries = include.filter((pattern) => typeof pattern === 'string');
    const files = include.filter((pattern) => pattern instanceof RegExp).map(String);
    for (const name of ['@google/adk', '@mastra/core', '@openai/agents-core', '@langchain/core']) {
      expect(entries, name).not.to.include(name);
    }
    expect(files).to.include(String(/\/node_modules\/@google\/adk\/dist\/esm\/tools\/function_tool\.js$/));
    // Patched at the entry: still listed.
    expect(entries).to.include.members(['ai', '@modelcontextprotocol/client', '@llamaindex/workflow']);
  });
});
