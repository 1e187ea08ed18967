import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { satisfies } from 'semver';
import type { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';

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
  const packageJson = join(__dirname, '..', '..', 'node_modules', alias, 'package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
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
