'use strict';
// Loaded first by each start app: at exit, the process's own CPU time and peak RSS, on one line,
// for bench/start-mechanisms.ts (wall time would measure the shared machine's load).
const { writeSync } = require('node:fs');

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const line = { cpuMs: (user + system) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024 };
  writeSync(1, `start-report ${JSON.stringify(line)}\n`);
});
