import { join } from 'node:path';
import { expect } from 'chai';
import type { ReceivedDataPoint, ReceivedSpan } from './otlp-json-receiver';
import { useRegisterBed } from './register-bed';
import { runPlainAndRegistered } from './run-node';

export interface RegisteredTwinsOptions {
  /** The folder of the fixtures. */
  fixtures: string;
  /** `<fixture>.cjs` runs under `--require`, its ESM twin `<fixture>.mjs` under `--import`. */
  fixture: string;
  /** The app's whole stdout, the same plain and under the register. */
  stdout: string;
  /** The registered run's OTEL_* (the receiver's endpoint and http/json are set). */
  otelEnv: Record<string, string>;
  /** Only `<fixture>.mjs` under `--import`: for an ESM-only framework. */
  esmOnly?: boolean;
}

/**
 * For a fixture and its ESM twin, as users run them: a `describe` each, whose `before` runs the
 * fixture plain and under the register (bundled as the package build makes it), with FLAKY_URL
 * pointing at a failing API on 127.0.0.1, and checks that the app's own output is unchanged. `tests`
 * registers the spec's tests on the spans the registered run exported.
 */
export function describeRegisteredTwins(
  options: RegisteredTwinsOptions,
  tests: (spans: () => ReceivedSpan[], points: () => ReceivedDataPoint[]) => void,
): void {
  const bed = useRegisterBed();

  const twins = [
    { flag: '--require', script: `${options.fixture}.cjs`, bundle: () => bed.bundles.cjs },
    { flag: '--import', script: `${options.fixture}.mjs`, bundle: () => bed.bundles.esm },
  ];
  for (const { flag, script, bundle } of options.esmOnly ? twins.slice(1) : twins) {
    describe(`node ${flag} otel-tool-errors/register ${script}`, () => {
      let spans: ReceivedSpan[] = [];
      let points: ReceivedDataPoint[] = [];
      before(async () => {
        const env = { FLAKY_URL: bed.flaky.url };
        const runs = await runPlainAndRegistered(
          [flag, bundle()],
          join(options.fixtures, script),
          env,
          options.otelEnv,
        );
        expect(runs.plain).to.deep.equal({ code: 0, stdout: options.stdout, stderr: '' });
        // The app's own output is the same with and without the register.
        expect(runs.registered).to.deep.equal(runs.plain);
        spans = runs.spans;
        points = runs.points;
      });
      tests(
        () => spans,
        () => points,
      );
    });
  }
}
