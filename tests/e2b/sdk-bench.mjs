// Per-command latency of the official SDK's commands.run against an E2B (the local one in
// the benchmark): node sdk-bench.mjs MODULES RUNS COMMAND. Prints one JSON line:
// {"median": ms, "p95": ms, "runs": n}, after 3 warm-up runs.
// Environment: E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY.
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [modules, runsText, command] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), 'package.json'));
const { Sandbox } = require('e2b');
const runs = Number(runsText);

const sandbox = await Sandbox.create('base', { timeoutMs: 300000 });
for (let i = 0; i < 3; ++i) await sandbox.commands.run(command);
const times = [];
for (let i = 0; i < runs; ++i) {
    const start = performance.now();
    await sandbox.commands.run(command);
    times.push(performance.now() - start);
}
await sandbox.kill();
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const p95 = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))];
console.log(JSON.stringify({ median, p95, runs }));
