import {
  InstrumentationBase,
  type InstrumentationModuleDefinition,
  type InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from '../tool-span/scope';
import type { FrameworkAdapter, FrameworkHooks } from './adapters/adapter';
import { createAdapterContext } from './adapters/adapter-context';
import { ADAPTERS, TOOL_FRAMEWORK_NAMES } from './adapters';
import { checkConfig, withCaptureDefaults } from './config';
import type { PackagePatches } from './esm-builds';
import { checkEsmSetUpLater } from './esm-set-up';
import { reportFrameworksLater } from './framework-report';
import { FrameworkSupport } from './framework-support';
import { readPackageVersionsOnce } from './package-versions-once';
import type { ToolInstrumentationConfig } from './types';

/**
 * Patches tool execution in the agent frameworks: one `execute_tool {gen_ai.tool.name}` span per
 * call where the framework has none, the framework's own tool span enriched where it has one, and
 * every failure classified (`error.type`, `tool.error_kind`, status ERROR).
 */
export class ToolInstrumentation extends InstrumentationBase<ToolInstrumentationConfig> {
  // `declare`: assigned in init(), which the base constructor calls before field initialisers run.
  declare private frameworkHooks: FrameworkHooks[];
  declare private moduleDefinitions: InstrumentationNodeModuleDefinition[];
  declare private support: FrameworkSupport;

  constructor(config: ToolInstrumentationConfig = {}) {
    super(
      INSTRUMENTATION_NAME,
      INSTRUMENTATION_VERSION,
      withCaptureDefaults(checkConfig(config, TOOL_FRAMEWORK_NAMES)),
    );
  }

  override setConfig(config: ToolInstrumentationConfig = {}): void {
    super.setConfig(checkConfig(config, TOOL_FRAMEWORK_NAMES));
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    // Here, not in the constructor: the base constructor enables the hooks right after init().
    readPackageVersionsOnce(this);
    // Once per instance: getModuleDefinitions() calls init() again, and the hooks hold state.
    this.frameworkHooks ??= this.setUpFrameworks();
    this.moduleDefinitions ??= this.frameworkHooks.flatMap((hooks) => hooks.modules ?? []);
    return this.moduleDefinitions;
  }

  /** What each module definition's patches reached so far: its entry, and each declared file. */
  private packagePatches(): PackagePatches[] {
    // The base class keeps the exports it patched on the definition (or on the file it patched).
    return (this.moduleDefinitions as InstrumentationModuleDefinition[]).map((definition) => ({
      name: definition.name,
      entryIsPatchPoint: definition.files.length === 0,
      entryPatched: definition.moduleExports !== undefined,
      files: definition.files.map((file) => ({ name: file.name, patched: file.moduleExports !== undefined })),
    }));
  }

  private setUpFrameworks(): FrameworkHooks[] {
    const disabled = new Set(this.getConfig().disabledFrameworks ?? []);
    this.support = new FrameworkSupport();
    const state = {
      tracer: () => this.tracer,
      config: () => this.getConfig(),
      isEnabled: () => this.isEnabled(),
      support: this.support,
    };
    return ADAPTERS.filter((adapter) => !disabled.has(adapter.name)).map((adapter) =>
      everyPackagePatched(adapter, adapter.setup(createAdapterContext(state, adapter))),
    );
  }

  override enable(): void {
    if (this.isEnabled()) return;
    super.enable();
    for (const hooks of this.frameworkHooks) hooks.enable?.();
    checkEsmSetUpLater(() => this.packagePatches());
    reportFrameworksLater(this.support);
  }

  override disable(): void {
    if (!this.isEnabled()) return;
    super.disable();
    for (const hooks of this.frameworkHooks) hooks.disable?.();
  }
}

/**
 * The hooks, once checked against the declaration: the register hooks every package an adapter
 * declares (hooked-modules.ts), so one it declares but never patches is an adapter's mistake.
 */
function everyPackagePatched(adapter: FrameworkAdapter, hooks: FrameworkHooks): FrameworkHooks {
  const patched = new Set((hooks.modules ?? []).map((definition) => definition.name));
  const unpatched = adapter.packages.filter((declared) => !patched.has(declared.name));
  if (unpatched.length > 0)
    throw new Error(
      `${adapter.name} declares ${unpatched.map((p) => p.name).join(', ')} but patches nothing of it`,
    );
  return hooks;
}
