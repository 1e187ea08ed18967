import Module from 'node:module';

/**
 * True while `require` is Node's own (its source counts the depth of nested requires, in Node 20 to
 * 26). A require hook installed before the register, such as another preload's
 * require-in-the-middle, keeps what each `require` returned, and would go on handing out a stand-in
 * after it left the module cache.
 */
function requireIsNodes(): boolean {
  return Function.prototype.toString.call(Module.prototype.require).includes('requireDepth++');
}

/**
 * Runs `load` with `exports` in the module cache under `key` (a resolved file, or a built-in
 * module's bare name, which Node also looks up there first), so that what `load` requires gets the
 * stand-in; then takes it out again, so that every later `require` gets the real module. Does
 * nothing for a key already cached, or where `require` is hooked already: the package is then
 * loaded as it always was, when the SDK requires it. Never throws: a failed `load` is left to
 * whoever requires the package next, which then says what is wrong.
 */
export function loadWithStandIn(key: string, exports: unknown, load: () => void): void {
  if (require.cache[key] || !requireIsNodes()) return;
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
