import { expect } from 'chai';
import type {
  FrameworkAdapter,
  ModulePatch,
  PackageDeclaration,
} from '../../src/instrumentation/adapters/adapter';
import { createAdapterContext } from '../../src/instrumentation/adapters/adapter-context';
import { FrameworkSupport } from '../../src/instrumentation/framework-support';
import { INSTRUMENTATION_VERSION as VERSION } from '../../src/tool-span/scope';
import { diagLines } from '../helpers/diag-lines';
import { createTestTracing } from '../helpers/tracing';

/**
 * How each release of a package is judged before a patch reaches it, through the adapter context
 * as adapters use it. What the user sees of it under the register is in
 * test/register/framework-releases.test.ts.
 */

/** A framework module: `run` is what the adapter wraps. */
const frameworkExports = () => ({ Agent: class Agent {}, run: () => 'ran' });

describe('framework releases: which are patched, and what is said of the rest', () => {
  const tracing = createTestTracing();
  after(() => tracing.shutdown());
  let support: FrameworkSupport;
  beforeEach(() => (support = new FrameworkSupport()));

  /** A context for adapter `name` declaring `packages`, as the instrumentation makes one per adapter. */
  const contextOf = (name: string, packages: PackageDeclaration[], ownToolSpans?: string) =>
    createAdapterContext(
      { tracer: () => tracing.tracer, config: () => ({}), isEnabled: () => true, support },
      { name, packages, ownToolSpans, setup: () => ({}) } satisfies FrameworkAdapter,
    );

  /** A patch that records what it patched, wrapping `run`. */
  const recordingPatch = (patched: object[]): ModulePatch => ({
    expects: { functions: ['run'] },
    patch: (exports: object) => void patched.push(exports),
    unpatch: (exports: object) => void patched.splice(patched.indexOf(exports), 1),
  });

  it('patches a tested release and a newer one whose shape matches; only the newer one is logged at info', async () => {
    const patched: object[] = [];
    const hook = contextOf('acme', [{ name: 'acme', tested: ['>=1.0.0 <2'] }]).patchPackage(
      'acme',
      recordingPatch(patched),
    );
    const tested = frameworkExports();
    const newer = frameworkExports();
    const lines = await diagLines(() => {
      hook.patch!(tested, '1.4.0');
      hook.patch!(newer, '2.1.0');
    });
    expect(patched).to.deep.equal([tested, newer]);
    expect(lines.filter((entry) => entry.level === 'info').map((entry) => entry.line)).to.deep.equal([
      `otel-tool-errors found acme 2.1.0, newer than the releases otel-tool-errors ${VERSION} was tested with ` +
        '(>=1.0.0 <2): patched, as its exports have the expected shape',
    ]);
    expect(lines).to.deep.include({
      level: 'debug',
      line: 'otel-tool-errors found acme 1.4.0: patched (tested >=1.0.0 <2)',
    });
  });

  it('leaves a release another adapter was tested on to that adapter, and a newer one to the newest', async () => {
    const v1: object[] = [];
    const v2: object[] = [];
    const v1Hook = contextOf('acme-v1', [{ name: 'acme', tested: ['>=1.0.0 <2'] }]).patchPackage(
      'acme',
      recordingPatch(v1),
    );
    const v2Hook = contextOf('acme-v2', [{ name: 'acme', tested: ['>=2.0.0 <3'] }]).patchPackage(
      'acme',
      recordingPatch(v2),
    );
    const releases = {
      '1.2.0': frameworkExports(),
      '2.3.0': frameworkExports(),
      '3.0.0': frameworkExports(),
    };
    const lines = await diagLines(() => {
      for (const [version, exports] of Object.entries(releases)) {
        v1Hook.patch!(exports, version);
        v2Hook.patch!(exports, version);
      }
    });
    expect(v1).to.deep.equal([releases['1.2.0']]);
    expect(v2).to.deep.equal([releases['2.3.0'], releases['3.0.0']]);
    expect(lines.filter((entry) => entry.level === 'warn')).to.deep.equal([]);
  });

  it('leaves an older release alone and says so once, naming what still works', async () => {
    const patched: object[] = [];
    const hook = contextOf(
      'acme',
      [{ name: 'acme', tested: ['>=1.0.0 <2'] }],
      "Acme's own tool spans",
    ).patchPackage('acme', recordingPatch(patched));
    const lines = await diagLines(() => {
      hook.patch!(frameworkExports(), '0.9.0');
      hook.patch!(frameworkExports(), '0.9.0');
    });
    expect(patched).to.deep.equal([]);
    expect(lines.filter((entry) => entry.level === 'warn').map((entry) => entry.line)).to.deep.equal([
      `otel-tool-errors acme 0.9.0 is outside the releases otel-tool-errors ${VERSION} supports (>=1.0.0 <2), so ` +
        "its tool calls get no spans from otel-tool-errors (ToolErrorSpanProcessor still enriches Acme's own " +
        'tool spans). Install a supported release of acme, or the newest otel-tool-errors.',
    ]);
  });

  it('a file that does not match takes off what was patched of the same release, and nothing more is patched', async () => {
    const patched: object[] = [];
    const files = ['tools', 'agents', 'runner'].map((file) => ({
      files: [`acme-files/dist/${file}.js`],
      ...recordingPatch(patched),
    }));
    const declared = { name: 'acme-files', tested: ['>=1.0.0 <2'], files: files.map((file) => file.files) };
    const definition = contextOf('acme', [declared]).patchFiles('acme-files', files);
    const [tools, agents, runner] = definition.files;
    const toolsExports = frameworkExports();
    const lines = await diagLines(() => {
      tools!.patch(toolsExports, '1.1.0');
      expect(patched).to.deep.equal([toolsExports]);
      agents!.patch({ Agent: class {} }, '1.1.0');
      runner!.patch(frameworkExports(), '1.1.0');
    });
    expect(patched).to.deep.equal([]);
    const warnings = lines.filter((entry) => entry.level === 'warn').map((entry) => entry.line);
    expect(warnings).to.deep.equal([
      `otel-tool-errors acme-files 1.1.0 has no run, which otel-tool-errors ${VERSION} patches, so nothing of ` +
        'acme-files was patched and its tool calls get no spans from otel-tool-errors. Upgrade otel-tool-errors.',
    ]);
  });

  it('patches a release without a readable version when its shape matches, and not otherwise', async () => {
    const patched: object[] = [];
    const matching = frameworkExports();
    const lines = await diagLines(() => {
      contextOf('acme', [{ name: 'acme-unversioned', tested: ['>=1.0.0 <2'] }]).patchPackage(
        'acme-unversioned',
        recordingPatch(patched),
      ).patch!(matching, undefined);
      contextOf('acme', [{ name: 'acme-unversioned-2', tested: ['>=1.0.0 <2'] }]).patchPackage(
        'acme-unversioned-2',
        recordingPatch(patched),
      ).patch!({ run: 'not a function' }, undefined);
    });
    expect(patched).to.deep.equal([matching]);
    expect(lines.filter((entry) => entry.level === 'warn').map((entry) => entry.line)).to.deep.equal([
      `otel-tool-errors acme-unversioned-2 has no run, which otel-tool-errors ${VERSION} patches, so nothing of ` +
        'acme-unversioned-2 was patched and its tool calls get no spans from otel-tool-errors. Upgrade otel-tool-errors.',
    ]);
  });
});
