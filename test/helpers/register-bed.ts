import { startFlakyServer, type FlakyServer } from './flaky-server';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from './otlp-json-receiver';
import type { Plugin } from 'esbuild';
import { buildRegisterBundles, type RegisterBundles } from './register-bundles';

/** What the register specs run against. */
export interface RegisterBed {
  /** The register's entry points and the library's ESM build, bundled as the package build makes them. */
  readonly bundles: RegisterBundles;
  /** A real HTTP server on 127.0.0.1 the fixtures' tools call (FLAKY_URL). */
  readonly flaky: FlakyServer;
  /** With `receiverPerTest`: a fresh OTLP receiver for each test. */
  readonly receiver: OtlpJsonReceiver;
}

/**
 * Registers the mocha hooks that build the bundles (with `esbuildPlugins`) and start the failing
 * API once, and with `receiverPerTest` an OTLP receiver around each test; returns the bed, filled
 * in by the hooks.
 */
export function useRegisterBed(
  options: { receiverPerTest?: boolean; esbuildPlugins?: Plugin[] } = {},
): RegisterBed {
  const bed = {} as { -readonly [K in keyof RegisterBed]: RegisterBed[K] };
  before(async () => {
    bed.bundles = await buildRegisterBundles(options.esbuildPlugins);
    bed.flaky = await startFlakyServer();
  });
  after(async () => {
    await bed.flaky?.close();
    bed.bundles?.dispose();
  });
  if (options.receiverPerTest) {
    beforeEach(async () => {
      bed.receiver = await startOtlpJsonReceiver();
    });
    afterEach(() => bed.receiver.close());
  }
  return bed;
}
