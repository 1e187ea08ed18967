// Preloaded into every command by start.py's memory pass: at exit, writes this process's resident
// memory by kind to the file MEMORY_AT_EXIT names, from /proc/self/smaps_rollup (kB). `anonymous` is
// the process's own (heaps, stacks); the rest of `rss` is file-backed: mostly the pages of the node
// binary that the process ran, which the kernel shares with every node process through its page cache.
const { readFileSync, writeFileSync } = require('node:fs');

process.on('exit', () => {
  const rollup = readFileSync('/proc/self/smaps_rollup', 'utf8');
  const kB = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1]);
  writeFileSync(process.env.MEMORY_AT_EXIT, JSON.stringify({ rss: kB('Rss'), anonymous: kB('Anonymous') }));
});
