import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { patchedForEsm, type PackagePatches } from './esm-builds';
import { checkLater } from './later-check';
import { logger } from '../logger';
import { noticeUser } from '../user-notice';

/**
 * An ESM app records no tool spans unless import-in-the-middle's loader hook was registered before
 * the app's imports: require-in-the-middle sees only `require`. Nothing fails, nothing is traced.
 * This check says so, once per process, when the app is ESM, no loader hook is active, and a
 * framework this instrumentation supports is installed where the app imports from but the code its
 * `import` reaches was not patched: patching its CommonJS copy (loaded through `require` or
 * `createRequire`) counts only where its ES module build re-exports that copy (esm-builds.ts).
 */

const CHECKED_KEY = Symbol.for('otel-tool-errors.esmSetUpChecked');
const HOOK_REGISTERED_KEY = Symbol.for('otel-tool-errors.esmLoaderHookRegistered');

/**
 * Called by the register's ESM entry once it registered the loader hook. Off-thread (Node's
 * `module.register`, before 22.15), nothing in this thread shows the hook until it has wrapped a
 * module, so an app that has imported no framework yet would otherwise look unhooked.
 */
export function markLoaderHookRegistered(): void {
  (globalThis as { [HOOK_REGISTERED_KEY]?: boolean })[HOOK_REGISTERED_KEY] = true;
}

const FIX =
  'start the app with `node --import otel-tool-errors/register app.mjs`, or, with your own SDK set-up, ' +
  "register the loader hook before the app's imports: `node --import ./otel.mjs app.mjs`, where otel.mjs calls " +
  "`register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)` from `node:module` before starting the SDK " +
  '(`--require` and an `import` at the top of the app are too late for ESM)';

/**
 * Checks the set-up once, when the app is about to exit or after 10 s, whichever comes first.
 * `patches` says, for each supported package, what the instrumentation patched of it.
 */
export function checkEsmSetUpLater(patches: () => readonly PackagePatches[]): void {
  const holder = globalThis as { [CHECKED_KEY]?: boolean };
  if (holder[CHECKED_KEY]) return;
  holder[CHECKED_KEY] = true;
  checkLater(() => {
    const missed = esmFrameworksMissed(patches());
    if (missed.length > 0) warn(missed);
  });
}

/** The supported frameworks an ESM app without a loader hook may have imported unpatched. */
export function esmFrameworksMissed(patches: readonly PackagePatches[]): string[] {
  const entry = process.argv[1];
  if (!entry || !isEsmEntry() || loaderHookActive()) return [];
  const from = appDirectory(entry);
  // A package can have several definitions (one per release line): any one patched for ESM counts.
  const missed = new Set<string>();
  const reached = new Set<string>();
  for (const patched of patches) {
    const directory = packageDirectoryFrom(from, patched.name);
    if (directory === undefined) continue;
    if (patchedForEsm(directory, patched)) reached.add(patched.name);
    else missed.add(patched.name);
  }
  return [...missed].filter((name) => !reached.has(name));
}

/** A CommonJS entry sets `require.main` before it runs; an ESM entry never does. */
function isEsmEntry(): boolean {
  return createRequire(join(process.cwd(), 'index.js')).main === undefined;
}

/**
 * Whether an import-in-the-middle loader hook is active: every module it wraps is registered with
 * its copy in this thread, and `addHook` replays those registrations at once. Each copy that an
 * instrumentation loaded is asked.
 */
function loaderHookActive(): boolean {
  if ((globalThis as { [HOOK_REGISTERED_KEY]?: boolean })[HOOK_REGISTERED_KEY]) return true;
  const cache = createRequire(join(process.cwd(), 'index.js')).cache;
  const suffix = `${sep}import-in-the-middle${sep}index.js`;
  for (const [file, cached] of Object.entries(cache)) {
    if (!file.endsWith(suffix)) continue;
    const iitm = cached?.exports as {
      addHook?: (hook: () => void) => void;
      removeHook?: (hook: () => void) => void;
    };
    if (typeof iitm?.addHook !== 'function' || typeof iitm.removeHook !== 'function') return true;
    let registered = false;
    const hook = () => {
      registered = true;
    };
    iitm.addHook(hook);
    iitm.removeHook(hook);
    if (registered) return true;
  }
  return false;
}

export function appDirectory(entry: string): string {
  try {
    return dirname(realpathSync(entry));
  } catch {
    return process.cwd();
  }
}

/** The folder of package `name` as Node resolves it from `from`: `node_modules/{name}` there or above. */
export function packageDirectoryFrom(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function warn(frameworks: readonly string[]): void {
  noticeUser(
    'this app runs as ESM and no import-in-the-middle loader hook is active, so the ' +
      `frameworks installed here (${frameworks.join(', ')}) cannot be patched when imported from ESM, and the ` +
      'tool calls of the copies the app imports get no spans (a copy loaded with `require` or `createRequire` ' +
      `is another copy). To fix it, ${FIX}.`,
    { diag: logger },
  );
}
