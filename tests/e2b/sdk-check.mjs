// The local E2B is faithful when the official JavaScript SDK works against it: create a
// sandbox, run commands with output, exit code, streamed output and stdin, kill a command
// and the sandbox, write, read and remove files with envd's file API, list sandboxes, and see a
// refused key as the SDK's authentication error.
// Environment: E2B_API_URL, E2B_SANDBOX_URL (the local server), E2B_API_KEY.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';

const modules = process.argv[2];
if (!modules) throw new Error('usage: node sdk-check.mjs <folder holding node_modules/e2b>');
const require = createRequire(path.join(path.resolve(modules), 'package.json'));
const { Sandbox, CommandExitError, AuthenticationError } = require('e2b');

const sandbox = await Sandbox.create('base', { timeoutMs: 60000 });
assert.match(sandbox.sandboxId, /^[a-z0-9]+$/);
console.log(`created ${sandbox.sandboxId}`);

const hello = await sandbox.commands.run('echo hello; echo oops >&2');
assert.equal(hello.exitCode, 0);
assert.equal(hello.stdout, 'hello\n');
assert.equal(hello.stderr, 'oops\n');

await assert.rejects(sandbox.commands.run('echo failing; exit 3'), (error) => {
    assert.ok(error instanceof CommandExitError, `expected CommandExitError, got ${error}`);
    assert.equal(error.exitCode, 3);
    assert.equal(error.stdout, 'failing\n');
    return true;
});

const streamed = [];
await sandbox.commands.run('for i in 1 2 3; do echo line $i; done', { onStdout: (data) => streamed.push(data) });
assert.equal(streamed.join(''), 'line 1\nline 2\nline 3\n');

const cat = await sandbox.commands.run('cat', { background: true, stdin: true });
await sandbox.commands.sendStdin(cat.pid, 'through stdin\n');
await sandbox.commands.closeStdin(cat.pid);
const catDone = await cat.wait();
assert.equal(catDone.stdout, 'through stdin\n');

const envs = await sandbox.commands.run('echo "$GREETING" from $(pwd)', { envs: { GREETING: 'hi' }, cwd: '/' });
assert.equal(envs.stdout, 'hi from /\n');

const sleeper = await sandbox.commands.run('sleep 30', { background: true });
const listed = await sandbox.commands.list();
assert.ok(listed.some((p) => p.pid === sleeper.pid), 'the running command is listed');
assert.equal(await sleeper.kill(), true);
await assert.rejects(sleeper.wait(), (error) => error instanceof CommandExitError);

// envd's file API: a file written and read back, and a larger one in the raw upload.
await sandbox.files.write('dir/hello.txt', 'hello file');
assert.equal(await sandbox.files.read('dir/hello.txt'), 'hello file');
const large = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
await sandbox.files.write('large.bin', new Blob([large]).stream());
const readBack = await sandbox.files.read('large.bin', { format: 'bytes' });
assert.equal(Buffer.compare(Buffer.from(readBack), large), 0);
await sandbox.files.write([{ path: 'many/a', data: 'a' }, { path: 'many/b', data: 'b' }]);
assert.equal((await sandbox.commands.run('cat many/a many/b')).stdout, 'ab');
await sandbox.files.remove('large.bin');
await assert.rejects(sandbox.files.read('large.bin'));

// The listing (GET /v2/sandboxes) names the sandbox.
const page = await Sandbox.list().nextItems();
assert.ok(page.some((s) => s.sandboxId === sandbox.sandboxId), 'the sandbox is listed');

await sandbox.setTimeout(120000);
const info = await sandbox.getInfo();
assert.equal(info.sandboxId, sandbox.sandboxId);
assert.equal(info.templateId, 'base');

assert.equal(await sandbox.isRunning(), true);
await sandbox.kill();
assert.equal(await Sandbox.kill(sandbox.sandboxId), false, 'a killed sandbox is gone');

await assert.rejects(Sandbox.create('base', { apiKey: 'e2b_wrong' }), (error) => error instanceof AuthenticationError);
console.log('the official SDK works against the local E2B');
