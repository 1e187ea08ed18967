import Module from 'node:module';

/**
 * Runs `load` with `exports` in the module cache under `key` (a resolved file, or a built-in
 * module's bare name, which Node also looks up there first), so that what `load` requires gets the
 * stand-in; then takes it out again, so that every later `require` gets the real module. Nothing is
 * stood in for a key already cached. Never throws: a failed `load` is left to whoever requires the
 * package next, which then says what is wrong.
 */
export function loadWithStandIn(key: string, exports: unknown, load: () => void): void {
  if (require.cache[key]) return;
  const standIn = new Module(key);
  standIn.filename = key;
  standIn.loaded = true;
  standIn.exports = exports;
  require.cache[key] = standIn;
  try {
    load();
  } catch {
    // See above.
  } finally {
    if (require.cache[key] === standIn) delete require.cache[key];
  }
}
