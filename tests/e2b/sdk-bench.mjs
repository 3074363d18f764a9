// The official SDK against an E2B (the local one in the benchmark), for bench_e2b:
//   node sdk-bench.mjs MODULES RUNS COMMAND
//     per-command latency of commands.run, after 3 warm-up runs
//   node sdk-bench.mjs MODULES RUNS --workspace DIR
//     a workspace round trip: every file of DIR written with files.write, `true` run in the
//     copy, every file read back with files.read; no warm-up run (each takes seconds, and a
//     slower first one does not move the median of three)
// Prints one JSON line: {"median": ms, "p95": ms, "runs": n}.
// Environment: E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [modules, runsText, command, folder] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), 'package.json'));
const { Sandbox } = require('e2b');
const runs = Number(runsText);

function filesOf(root) {
    return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)));
}

async function roundTrip(sandbox, root, names) {
    await sandbox.files.write(names.map((name) => ({ path: `ws/${name}`, data: readFileSync(path.join(root, name)) })));
    await sandbox.commands.run('true', { cwd: 'ws' });
    let bytes = 0;
    for (const name of names) bytes += (await sandbox.files.read(`ws/${name}`, { format: 'bytes' })).length;
    return bytes;
}

const sandbox = await Sandbox.create('base', { timeoutMs: 300000 });
const workspace = command === '--workspace';
const names = workspace ? filesOf(folder) : [];
const once = workspace ? () => roundTrip(sandbox, folder, names) : () => sandbox.commands.run(command);
for (let i = 0; i < (workspace ? 0 : 3); ++i) await once();
const times = [];
for (let i = 0; i < runs; ++i) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
}
await sandbox.kill();
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const p95 = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))];
console.log(JSON.stringify({ median, p95, runs }));
