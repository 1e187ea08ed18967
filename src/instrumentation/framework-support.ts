import { basename } from 'node:path';
import { read } from '../classify/safe';
import { logger } from '../logger';
import { INSTRUMENTATION_VERSION } from '../tool-span/scope';
import type { ExportShape, FrameworkAdapter } from './adapters/adapter';
import {
  above,
  compareReleases,
  parseRange,
  parseRelease,
  satisfies,
  type ReleaseRange,
} from './release-range';
import { noticeUser } from '../user-notice';

/**
 * Version gating, all of it (release-range.ts only compares releases): which releases of a
 * framework an adapter patches, and what the user is told about the rest. Every release of a
 * package reaches the patch (the module hooks accept any version, `ANY_RELEASE`); here it is
 * judged against the releases the adapter's declaration says its tests pass on:
 * - tested, and its exports have the expected shape: patched;
 * - newer than every adapter's tested range, with the expected shape: patched, and logged once;
 * - tested by another adapter (the AI SDK v6 adapter leaves `ai` 7 to the v7 one): left to it;
 * - anything else, or a shape that does not match: nothing of the package is patched, and the user
 *   is told once, on stderr and through `diag`.
 */

/** What a module hook accepts: any release, judged here when it loads, never silently skipped. */
export const ANY_RELEASE = ['*'];

/** What a module definition carries besides OpenTelemetry's fields: the range its adapter was tested on. */
export interface TestedRange {
  testedVersions: string[];
}

/** The definition, with the range its adapter was tested on (its hooks accept any, `ANY_RELEASE`). */
export function withTestedRange<T extends object>(definition: T, tested: readonly string[]): T & TestedRange {
  return Object.assign(definition, { testedVersions: [...tested] });
}

/** A package an adapter patches, and the releases its tests pass on. */
export interface PatchPoint {
  readonly adapter: FrameworkAdapter;
  readonly name: string;
  readonly tested: readonly string[];
  /** For file patch points: the module names of each patched file's builds (see `FilePatch`). */
  readonly files?: ReadonlyArray<readonly string[]>;
}

type Fit = 'tested' | 'newer' | 'unknown version' | 'another adapter' | 'outside';

/** One release of a package as one adapter found it. */
export interface FoundRelease {
  readonly point: PatchPoint;
  readonly version: string | undefined;
  readonly fit: Fit;
  /** Set when the release is left alone: why, as the user is told. */
  leftAlone?: string;
  /** Takes off what was patched of this release, should a later file turn out not to match. */
  readonly undo: Array<() => void>;
}

export class FrameworkSupport {
  private readonly points = new Map<string, PatchPoint[]>();
  private readonly found = new Map<string, FoundRelease>();
  private readonly ranges = new Map<PatchPoint, readonly ReleaseRange[]>();

  /** Records a patch point; every point of a package must be declared before any is judged. */
  declare(point: PatchPoint): PatchPoint {
    const points = this.points.get(point.name) ?? [];
    points.push(point);
    this.points.set(point.name, points);
    return point;
  }

  declared(): readonly PatchPoint[] {
    return [...this.points.values()].flat();
  }

  /** The releases found so far. */
  releases(): readonly FoundRelease[] {
    return [...this.found.values()];
  }

  /**
   * Whether `exports`, one module of `point`'s package at `version`, may be patched with a patch
   * that `expects` a shape. When the answer is no for a reason the user must hear, they are told.
   * `undo` is kept to take the patch off if a later module of the same release does not match.
   */
  admit(
    point: PatchPoint,
    version: string | undefined,
    exports: unknown,
    expects?: ExportShape,
  ): FoundRelease {
    const key = `${point.adapter.name}\u0000${point.name}\u0000${version}`;
    let release = this.found.get(key);
    if (!release) {
      release = { point, version, fit: this.fit(point, version), undo: [] };
      this.found.set(key, release);
      this.judged(release);
    }
    if (isPatched(release)) {
      const missing = missingFromShape(exports, expects);
      if (missing.length > 0) this.refuse(release, missing);
    }
    return release;
  }

  /** Says, once, that a release was found whose patched files never loaded because it has none of them. */
  filesMissing(point: PatchPoint, version: string | undefined, files: readonly string[]): void {
    noticeUser(
      `${release(point.name, version)} was loaded, but the file${files.length > 1 ? 's' : ''} ` +
        `otel-tool-errors ${INSTRUMENTATION_VERSION} patches in it (${files.join(', ')}) ` +
        `${files.length > 1 ? 'are' : 'is'} not there, so ${consequence(point)} Upgrade otel-tool-errors.`,
      { diag: logger },
    );
  }

  /** Says, once, that frameworks were bundled into the app's entry script, where no hook reaches them. */
  bundled(names: readonly string[], entry: string): void {
    const adapters = this.declared().filter((point) => names.includes(point.name));
    const kept = adapters.flatMap((point) =>
      point.adapter.ownToolSpans ? [point.adapter.ownToolSpans] : [],
    );
    noticeUser(
      `${names.join(', ')} ${names.length > 1 ? 'were' : 'was'} bundled into ${basename(entry)}, where ` +
        'otel-tool-errors cannot patch it, so its tool calls get no spans from otel-tool-errors' +
        `${kept.length > 0 ? ` (ToolErrorSpanProcessor still enriches ${[...new Set(kept)].join(', ')})` : ''}. ` +
        `Keep the frameworks out of the bundle: esbuild --packages=external (or --external:${names[0]}), ` +
        'webpack externals.',
      { diag: logger },
    );
  }

  /** How `version` of `point`'s package relates to the ranges every adapter declared for it. */
  fit(point: PatchPoint, version: string | undefined): Fit {
    const release = version === undefined ? undefined : parseRelease(version);
    if (release === undefined) return 'unknown version';
    const inRange = (p: PatchPoint) => this.rangesOf(p).some((range) => satisfies(release, range));
    if (inRange(point)) return 'tested';
    const points = this.points.get(point.name) ?? [point];
    if (points.some((p) => p.adapter !== point.adapter && inRange(p))) return 'another adapter';
    if (!points.every((p) => this.rangesOf(p).every((range) => above(release, range)))) return 'outside';
    return this.newest(points).adapter === point.adapter ? 'newer' : 'another adapter';
  }

  /**
   * The point's tested ranges, read when a release of its package is first judged, not at start; a
   * range of another form than `>=1.2.3 <2` throws (release-range.ts).
   */
  private rangesOf(point: PatchPoint): readonly ReleaseRange[] {
    let ranges = this.ranges.get(point);
    if (!ranges) this.ranges.set(point, (ranges = point.tested.map(parseRange)));
    return ranges;
  }

  /** The point whose tested releases start highest: the one a release newer than all of them goes to. */
  private newest(points: readonly PatchPoint[]): PatchPoint {
    const start = (point: PatchPoint) =>
      this.rangesOf(point)
        .map((range) => range.lowest)
        .sort(compareReleases)
        .at(-1) ?? NONE;
    return [...points].sort((a, b) => compareReleases(start(a), start(b))).at(-1)!;
  }

  /** The ranges all adapters declared for a package, as the user reads them. */
  private rangesText(name: string): string {
    const ranges = (this.points.get(name) ?? []).flatMap((point) => point.tested);
    return [...new Set(ranges)].join(' or ');
  }

  private judged(found: FoundRelease): void {
    const { point, version, fit } = found;
    const what = release(point.name, version);
    switch (fit) {
      case 'tested':
        logger.debug(`found ${what}: patched (tested ${point.tested.join(' or ')})`);
        return;
      case 'unknown version':
        logger.debug(`found ${point.name} without a readable version: patched if its exports match`);
        return;
      case 'newer':
        logger.info(
          `found ${what}, newer than the releases otel-tool-errors ${INSTRUMENTATION_VERSION} was tested ` +
            `with (${this.rangesText(point.name)}): patched, as its exports have the expected shape`,
        );
        return;
      case 'another adapter':
        logger.debug(`found ${what}: left to another adapter than ${point.adapter.name}`);
        return;
      case 'outside':
        found.leftAlone = `outside the supported releases (${this.rangesText(point.name)})`;
        logger.debug(`found ${what}: left alone, ${found.leftAlone}`);
        noticeUser(
          `${what} is outside the releases otel-tool-errors ${INSTRUMENTATION_VERSION} supports ` +
            `(${this.rangesText(point.name)}), so ${consequence(point)} ` +
            `Install a supported release of ${point.name}, or the newest otel-tool-errors.`,
          { once: `outside ${what}`, diag: logger },
        );
    }
  }

  private refuse(found: FoundRelease, missing: readonly string[]): void {
    found.leftAlone = `its exports lack ${missing.join(', ')}`;
    for (const undo of found.undo.splice(0)) undo();
    const what = release(found.point.name, found.version);
    logger.debug(`found ${what}: left alone, ${found.leftAlone}`);
    noticeUser(
      `${what} has no ${missing.join(', ')}, which otel-tool-errors ${INSTRUMENTATION_VERSION} patches, so ` +
        `nothing of ${found.point.name} was patched and ${consequence(found.point)} Upgrade otel-tool-errors.`,
      { diag: logger },
    );
  }
}

/** Whether a release that fits so is patched (when its shape matches). */
export function patches(fit: Fit): boolean {
  return fit === 'tested' || fit === 'newer' || fit === 'unknown version';
}

/** Whether the release is patched: it fits, and nothing of it was found not to match. */
export function isPatched(release: FoundRelease): boolean {
  return release.leftAlone === undefined && patches(release.fit);
}

function release(name: string, version: string | undefined): string {
  return version === undefined ? name : `${name} ${version}`;
}

/** What the user loses, and what still works where the framework makes tool spans of its own. */
function consequence({ adapter }: PatchPoint): string {
  const kept = adapter.ownToolSpans ? ` (ToolErrorSpanProcessor still enriches ${adapter.ownToolSpans})` : '';
  return `its tool calls get no spans from otel-tool-errors${kept}.`;
}

const NONE = parseRelease('0.0.0')!;

/**
 * What of `shape` a module's exports lack, as `name` or `Class.prototype.method`: empty when
 * everything a patch wraps is there and is a function. Reads through getters without letting one
 * throw.
 */
function missingFromShape(exports: unknown, shape: ExportShape | undefined): string[] {
  if (!shape) return [];
  const missing: string[] = [];
  for (const name of shape.functions ?? []) {
    if (typeof read(exports, name) !== 'function') missing.push(name);
  }
  for (const [className, methods] of Object.entries(shape.prototypes ?? {})) {
    const prototype = read(read(exports, className), 'prototype');
    for (const method of methods) {
      if (typeof read(prototype, method) !== 'function') missing.push(`${className}.prototype.${method}`);
    }
  }
  return missing;
}
