import { createRequire } from 'node:module';
import { expect } from 'chai';
import { satisfies } from 'semver';
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
 * the check require-in-the-middle makes: the adapter's range takes the alias's version. Returns
 * the exports the app would get.
 */
export function patchAlias(
  instrumentation: ToolInstrumentation,
  alias: string,
  name: string,
  exports: unknown,
): any {
  const version = aliasVersion(alias);
  const hooks = instrumentation
    .getModuleDefinitions()
    .flatMap((definition) => [definition, ...definition.files])
    .filter((hook) => hook.name === name);
  expect(hooks).to.have.length(1);
  const [hook] = hooks;
  expect(
    hook!.supportedVersions.some((range) => satisfies(version, range)),
    `${name} ${version} in ${hook!.supportedVersions}`,
  ).to.equal(true);
  return hook!.patch!(exports, version);
}
