import { noticeUser } from '../user-notice';

/**
 * jest's own command: its `bin` (`node_modules/.bin/jest`, `jest/bin/jest.js`, `jest-cli/bin/jest.js`,
 * as npm, pnpm, yarn and Windows shims start it).
 */
const JEST_BIN = /(^|[\\/])(\.bin[\\/]jest|jest(-cli)?[\\/]bin[\\/]jest\.js)$/;

/**
 * Under jest, says once that the register cannot see the test files' modules: jest loads them, and
 * the frameworks they require or import, through its own module registry (read, wrapped and run in
 * a `vm` context of its own), which neither `require` hooks nor the ES module loader hook see, and
 * in that context the register's tracer provider is not the one the api finds. Said in the process
 * started as jest, which runs the tests itself or starts the workers that do (they get
 * `NODE_OPTIONS` too, and say nothing: their stderr reaches the user through it).
 */
export function sayIfUnderJest(argv: readonly string[] = process.argv): void {
  const script = argv[1];
  if (script === undefined || !JEST_BIN.test(script)) return;
  noticeUser(
    "jest loads the tests' modules through its own module registry, which the register cannot see: " +
      'the frameworks your tests load are not patched and their tool calls get no spans from it. ' +
      'Start tracing in a jest setup file and wrap your tools with instrumentTool ' +
      '(docs/deployment.md, "Tests under jest").',
  );
}
