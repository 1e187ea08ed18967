import { builtinModules } from 'node:module';

/**
 * import-in-the-middle's `include` matching, for the hooks that stand in for its own until a
 * module it would wrap comes: a pattern tests the URL; a name is the specifier or the URL (a
 * built-in's too with `node:`).
 */
export function includeMatcher(
  include: readonly (string | RegExp)[],
): (url: string, specifier: string) => boolean {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  for (const each of include) {
    if (each instanceof RegExp) patterns.push(each);
    else {
      names.add(each);
      if (builtinModules.includes(each)) names.add(`node:${each}`);
    }
  }
  return (url, specifier) =>
    names.has(specifier) || names.has(url) || patterns.some((pattern) => pattern.test(url));
}
