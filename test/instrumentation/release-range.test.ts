import { expect } from 'chai';
import fc from 'fast-check';
import * as semver from 'semver';
import {
  above,
  compareReleases,
  parseRange,
  parseRelease,
  satisfies,
} from '../../src/instrumentation/release-range';
import { FrameworkSupport } from '../../src/instrumentation/framework-support';
import { ADAPTERS } from '../../src/instrumentation/adapters';
import { createAdapterContext } from '../../src/instrumentation/adapters/adapter-context';
import { createTestTracing } from '../helpers/tracing';

/**
 * The adapters' release checks compare as the `semver` package does, which the register no longer
 * loads at start: each function against its `semver` twin, on generated releases and ranges of the
 * form adapters declare, and on every range an adapter declares.
 */

const part = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 30 }));
const identifier = fc.oneof(
  fc.constantFrom('0', '1', '2', '10', 'alpha', 'beta', 'rc', 'canary', 'x-1', '01a', '9007199254740993'),
  fc.nat({ max: 12 }).map(String),
);
const release = fc
  .tuple(
    part,
    part,
    part,
    fc.array(identifier, { maxLength: 3 }),
    fc.constantFrom('', '+build.5', '+sha.abc'),
    fc.constantFrom('', 'v', ' '),
  )
  .map(
    ([major, minor, patch, pre, build, lead]) =>
      `${lead}${major}.${minor}.${patch}${pre.length > 0 ? `-${pre.join('.')}` : ''}${build}`,
  );
const range = fc
  .tuple(
    part,
    part,
    part,
    fc.oneof(
      fc.constant(''),
      part.map(String),
      fc.tuple(part, part).map(([a, b]) => `${a}.${b}`),
      fc.tuple(part, part, part).map((v) => v.join('.')),
    ),
  )
  .map(([major, minor, patch, upper]) => `>=${major}.${minor}.${patch}${upper === '' ? '' : ` <${upper}`}`)
  // A range that allows no release is refused (below).
  .filter((text) => semver.minVersion(text) !== null)
  // semver drops a lower bound of 0.0.0, so that its `gtr` puts 0.0.0's prereleases above
  // `>=0.0.0 <1`; ours keeps the bound (they are below it). No adapter declares one: `*` says that.
  .filter((text) => !text.startsWith('>=0.0.0'));
const rangeOrAny = fc.oneof({ arbitrary: range, weight: 9 }, { arbitrary: fc.constant('*'), weight: 1 });

describe('release ranges: as semver compares them', () => {
  it('reads a release where semver.valid does, and nothing else (fast-check)', () => {
    const anything = fc.oneof(
      release,
      fc.string(),
      fc.constantFrom(
        '1.2',
        '01.2.3',
        '1.2.3-',
        '1.2.3-01',
        'v1.2.3',
        '=1.2.3',
        '1.2.3 ',
        `1.2.${'9'.repeat(20)}`,
      ),
    );
    fc.assert(
      fc.property(anything, (text) => {
        expect(parseRelease(text) !== undefined, text).to.equal(semver.valid(text) !== null);
      }),
      { numRuns: 3000 },
    );
  });

  it('orders releases as semver.compare (fast-check)', () => {
    fc.assert(
      fc.property(release, release, (a, b) => {
        expect(Math.sign(compareReleases(parseRelease(a)!, parseRelease(b)!)), `${a} vs ${b}`).to.equal(
          semver.compare(a, b),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('satisfies and above as semver.satisfies and semver.gtr, prereleases included (fast-check)', () => {
    fc.assert(
      fc.property(release, rangeOrAny, (version, text) => {
        const parsed = parseRange(text);
        const at = parseRelease(version)!;
        expect(satisfies(at, parsed), `${version} in ${text}`).to.equal(semver.satisfies(version, text));
        expect(above(at, parsed), `${version} above ${text}`).to.equal(semver.gtr(version, text));
      }),
      { numRuns: 5000 },
    );
  });

  it('on the bounds of every range an adapter declares, and its lowest release is semver.minVersion', () => {
    const support = new FrameworkSupport();
    const tracing = createTestTracing();
    const state = { tracer: () => tracing.tracer, config: () => ({}), isEnabled: () => false, support };
    for (const adapter of ADAPTERS) adapter.setup(createAdapterContext(state, adapter));
    void tracing.shutdown();
    const declared = [...new Set(support.declared().flatMap((point) => point.tested))];
    expect(declared.length).to.be.greaterThan(5);
    for (const text of declared) {
      const parsed = parseRange(text);
      expect(semver.minVersion(text)?.version).to.equal(`${parsed.lowest.main.join('.')}`);
      const bounds = [parsed.lowest, ...(parsed.above ? [parsed.above] : [])].flatMap(
        ({ main: [a, b, c] }) => [
          `${a}.${b}.${c}`,
          `${a}.${b}.${c}-0`,
          `${a}.${b}.${c}-rc.1`,
          `${a}.${b}.${c + 1}`,
          `${a}.${b + 1}.0`,
          `${a + 1}.0.0`,
          `${a}.${b}.${Math.max(c - 1, 0)}`,
          `${Math.max(a - 1, 0)}.99.0`,
        ],
      );
      for (const version of bounds) {
        expect(satisfies(parseRelease(version)!, parsed), `${version} in ${text}`).to.equal(
          semver.satisfies(version, text),
        );
        expect(above(parseRelease(version)!, parsed), `${version} above ${text}`).to.equal(
          semver.gtr(version, text),
        );
      }
    }
  });

  it('refuses a range of another form, as an adapter declaring one must learn in its tests', () => {
    for (const text of [
      '^1.2.0',
      '1.x',
      '>=1.0.0 || >=3',
      '>1.0.0',
      '>=1.0.0 <=2',
      '>=1.0.0-rc.1 <2',
      '>=1.0.0 <2 <3',
      '',
    ]) {
      expect(() => parseRange(text), text).to.throw(/is not of the form/);
    }
  });
});
