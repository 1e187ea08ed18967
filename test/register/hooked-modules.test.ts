import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { expect } from 'chai';
import { TOOL_FRAMEWORK_NAMES } from '../../src/instrumentation/adapters';
import { loaderHookInclude, moduleDefinitionShape } from '../../src/instrumentation/loader-hook-include';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import {
  globalsStartingTheRegister,
  HOOKED_MODULES,
  hookedInstrumentations,
  loaderHookIncludeFor,
  packagesStartingTheRegister,
} from '../../src/register/hooked-modules';
import { readRegisterSettings } from '../../src/register/settings';

type Definitions = { getModuleDefinitions(): Parameters<typeof moduleDefinitionShape>[0][] };

/** The instrumentations the register runs, one per name in HOOKED_MODULES, as the start constructs them. */
function instrumentation(name: string): object {
  if (name === 'http') return new HttpInstrumentation({ enabled: false });
  if (name === 'undici') return new UndiciInstrumentation({ enabled: false });
  return new ToolInstrumentation({
    enabled: false,
    disabledFrameworks: TOOL_FRAMEWORK_NAMES.filter((other) => other !== name),
  });
}

describe('the modules the register hooks, known before its SDK loads (hooked-modules.ts)', () => {
  it('names every framework and the two HTTP client instrumentations, no more', () => {
    expect(Object.keys(HOOKED_MODULES).sort()).to.deep.equal(
      [...TOOL_FRAMEWORK_NAMES, 'http', 'undici'].sort(),
    );
  });

  // A framework's are made from its adapter's declaration, as the instrumentation's own are; the
  // HTTP instrumentations' are written in the table.
  for (const name of Object.keys(HOOKED_MODULES)) {
    it(`${name}: the table is the instrumentation's own module definitions, and gives the same include list`, () => {
      const real = instrumentation(name);
      const shapes = (real as Definitions).getModuleDefinitions().map(moduleDefinitionShape);
      expect(HOOKED_MODULES[name]).to.deep.equal(shapes);
      expect(loaderHookIncludeFor([name]).map(String)).to.deep.equal(loaderHookInclude([real]).map(String));
    });
  }

  it("the registries whose first read starts the register: AI SDK 7's integrations", () => {
    expect(globalsStartingTheRegister()).to.deep.equal(['AI_SDK_TELEMETRY_INTEGRATIONS']);
  });

  it('the packages whose require starts the register: every hooked module, undici and the api', () => {
    const packages = packagesStartingTheRegister();
    for (const definitions of Object.values(HOOKED_MODULES))
      for (const { name } of definitions) expect(packages.has(name), name).to.equal(true);
    expect([...packages]).to.include.members(['@opentelemetry/api', 'undici', 'http', 'https', 'ai']);
  });

  it('the settings choose the instrumentations as the start does', () => {
    const all = Object.keys(HOOKED_MODULES);
    expect(hookedInstrumentations(readRegisterSettings({}))).to.deep.equal(all);
    expect(
      hookedInstrumentations(
        readRegisterSettings({
          OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'http,mastra',
          OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS: 'langchain,http,nonesuch',
        }),
      ),
    ).to.deep.equal(all.filter((name) => !['http', 'mastra', 'langchain'].includes(name)));
    expect(
      hookedInstrumentations(
        readRegisterSettings({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'ai-sdk-v6,undici' }),
      ),
    ).to.deep.equal(['ai-sdk-v6', 'undici']);
  });
});
