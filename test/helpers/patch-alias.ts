import { createRequire } from 'node:module';
import { expect } from 'chai';
import { satisfies } from 'semver';
import type { TestedRange } from '../../src/instrumentation/framework-support';
import type { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { installedVersion } from './installed-version';

const load = createRequire(__filename);

/** The alias's version as it resolves (the version matrix may point it at the release under test). */
function aliasVersion(alias: string): string {
  try {
    return installedVersion(load, alias);
  } catch {
    // A package without a main entry (the MCP SDK 1.x): its exports' `./*` pattern reaches a file.
    return installedVersion(load, `${alias}/package.json`);
  }
}

/**
 * An npm alias is not the package name require-in-the-middle hooks, so the instrumentation's own
 * patch of `name` (a package, or a file of one) is applied to the alias's `exports` by hand, after
 * checking that the alias's version is in the adapter's tested range. Returns the exports the app
 * would get.
 */
export function patchAlias(
  instrumentation: ToolInstrumentation,
  alias: string,
  name: string,
  exports: unknown,
): any {
  const version = aliasVersion(alias);
  // The hooks take any release; the adapter whose tested range holds the alias's version patches it.
  const hooks = instrumentation
    .getModuleDefinitions()
    .filter((definition) =>
      (definition as unknown as TestedRange).testedVersions.some((range) => satisfies(version, range)),
    )
    .flatMap((definition) => [definition, ...definition.files])
    .filter((hook) => hook.name === name);
  expect(hooks, `one hook of ${name} tested on ${version}`).to.have.length(1);
  const [hook] = hooks;
  return hook!.patch!(exports, version);
}
