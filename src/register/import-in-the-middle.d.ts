// import-in-the-middle ships types for register-hooks.mjs only; this dependency-free entry is
// what the ESM register reads first, to load the hooks only on a Node that can run them.
declare module 'import-in-the-middle/supports-sync-hooks.mjs' {
  export function supportsSyncHooks(): boolean;
}
