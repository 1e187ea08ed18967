/**
 * Releases and the tested ranges adapters declare, compared as the `semver` package compares them
 * (test/instrumentation/release-range.test.ts checks it against `semver` itself). The adapters'
 * ranges take one form, `>=1.2.3` with an optional `<2` or `<2.1.0` above it (or `*`), so a few lines do
 * what `semver` does with regular expressions built when it loads, which every start paid.
 */

/** A release: `1.2.3`, `1.2.3-rc.1`, a leading `v` and build metadata allowed, as `semver.valid` reads it. */
export interface Release {
  readonly main: readonly [number, number, number];
  readonly prerelease: ReadonlyArray<string | number>;
}

/** `*`, or `>=lowest`, and `<above` when given (a partial `<2` is `<2.0.0-0`, before 2.0.0's prereleases). */
export interface ReleaseRange {
  readonly text: string;
  readonly lowest: Release;
  readonly above: Release | undefined;
}

const NUMBER = '0|[1-9]\\d*';
const IDENTIFIER = `(?:${NUMBER}|\\d*[a-zA-Z-][a-zA-Z0-9-]*)`;
const RELEASE = new RegExp(
  `^v?(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`,
);
const PARTIAL = new RegExp(`^(${NUMBER})(?:\\.(${NUMBER}))?$`);
const NUMERIC = /^[0-9]+$/;
/** semver's limit on a version's length. */
const MAX_LENGTH = 256;

/** The release `text` names, or undefined where `semver.valid` gives null. */
export function parseRelease(text: string): Release | undefined {
  const trimmed = text.trim();
  if (trimmed.length > MAX_LENGTH) return undefined;
  const match = RELEASE.exec(trimmed);
  if (!match) return undefined;
  const main = [Number(match[1]), Number(match[2]), Number(match[3])] as const;
  if (main.some((part) => part > Number.MAX_SAFE_INTEGER)) return undefined;
  const prerelease = match[4]?.split('.').map((id) => {
    const number = NUMERIC.test(id) ? Number(id) : NaN;
    return number < Number.MAX_SAFE_INTEGER ? number : id;
  });
  return { main, prerelease: prerelease ?? [] };
}

/**
 * The range `text`; throws on any other form, or on a range that allows no release, so that an
 * adapter declaring one fails its tests.
 */
export function parseRange(text: string): ReleaseRange {
  if (text.trim() === '*') return { text, lowest: { main: [0, 0, 0], prerelease: [] }, above: undefined };
  const [low, high, ...rest] = text.trim().split(/\s+/);
  const lowest = low?.startsWith('>=') ? parseRelease(low.slice(2)) : undefined;
  const above = high?.startsWith('<') ? upperBound(high.slice(1)) : undefined;
  if (!lowest || lowest.prerelease.length > 0 || (high !== undefined && !above) || rest.length > 0) {
    throw new Error(`release range ${JSON.stringify(text)} is not of the form ">=1.2.3 <2" or "*"`);
  }
  if (above && compareReleases(above, lowest) <= 0) {
    throw new Error(`release range ${JSON.stringify(text)} allows no release`);
  }
  return { text, lowest, above };
}

function upperBound(text: string): Release | undefined {
  const partial = PARTIAL.exec(text);
  if (partial) return { main: [Number(partial[1]), Number(partial[2] ?? 0), 0], prerelease: [0] };
  const release = parseRelease(text);
  return release && release.prerelease.length === 0 && !text.startsWith('v') ? release : undefined;
}

/** Negative, zero or positive as `a` precedes, equals or follows `b` (build metadata ignored). */
export function compareReleases(a: Release, b: Release): number {
  for (let i = 0; i < 3; i++) if (a.main[i] !== b.main[i]) return a.main[i]! < b.main[i]! ? -1 : 1;
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return b.prerelease.length - a.prerelease.length; // a release follows its prereleases
  }
  for (let i = 0; ; i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? -1 : 1;
    if (x !== y) return compareIdentifiers(x, y);
  }
}

/** Numeric identifiers (digits only, however long) precede the others and compare as numbers. */
function compareIdentifiers(x: string | number, y: string | number): number {
  const xNumeric = NUMERIC.test(String(x));
  const yNumeric = NUMERIC.test(String(y));
  if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
  const [a, b] = xNumeric ? [Number(x), Number(y)] : [x, y];
  return a === b ? 0 : a < b ? -1 : 1;
}

const sameMain = (a: Release, b: Release | undefined) =>
  b !== undefined && a.main.every((part, i) => part === b.main[i]);

/**
 * `semver.satisfies`: within the range; a prerelease only where a bound is a prerelease of the
 * same major.minor.patch.
 */
export function satisfies(release: Release, range: ReleaseRange): boolean {
  if (compareReleases(release, range.lowest) < 0) return false;
  if (range.above && compareReleases(release, range.above) >= 0) return false;
  return (
    release.prerelease.length === 0 || (sameMain(release, range.above) && range.above!.prerelease.length > 0)
  );
}

/** `semver.gtr`: above every release the range allows (a range with no upper bound has none above it). */
export function above(release: Release, range: ReleaseRange): boolean {
  if (range.above === undefined || satisfies(release, range)) return false;
  return compareReleases(release, range.lowest) >= 0;
}
