import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { satisfies } from 'semver';
import type { TestedRange } from '../../src/instrumentation/adapters/adapter-context';
import type { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';

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
  const packageJson = join(__dirname, '..', '..', 'node_modules', alias, 'package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
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
