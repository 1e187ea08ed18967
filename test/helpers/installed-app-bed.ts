import { installApp } from '../pipeline/installed-app';
import { startFlakyServer, type FlakyServer } from './flaky-server';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from './otlp-json-receiver';

export interface InstalledAppBed {
  /** The app folder, with the package installed in its node_modules as users install it. */
  app: { dir: string; remove(): void };
  flaky: FlakyServer;
  /** A receiver of its own for each test. */
  receiver: OtlpJsonReceiver;
}

/**
 * Registers the mocha hooks that install the app of `fixture` (a folder with a package.json) once,
 * start a flaky server for its tools, and a fresh OTLP receiver for each test; returns them, filled
 * in once the hooks have run.
 */
export function useInstalledAppBed(fixture: string): InstalledAppBed {
  const bed = {} as InstalledAppBed;
  before(async () => {
    bed.app = await installApp(fixture);
    bed.flaky = await startFlakyServer();
  });
  after(async () => {
    bed.app?.remove();
    await bed.flaky?.close();
  });
  beforeEach(async () => (bed.receiver = await startOtlpJsonReceiver()));
  afterEach(() => bed.receiver.close());
  return bed;
}
