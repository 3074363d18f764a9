// sandbox-acp as an editor runs it, with the official ACP SDK on both sides: this script is
// the editor (the SDK's client side) and starts sandbox-acp as its agent; behind the bridge
// runs sdk-agent.mjs (the SDK's agent side). The engine is the real one, hosted by
// sandbox-acp, with the built-in auto backend, so terminals and file access are confined.
//   node sdk-editor.mjs MODULES SANDBOX_ACP   (sandboxctl is taken from beside SANDBOX_ACP)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [modulesArg, bridgeArg] = process.argv.slice(2);
if (!modulesArg || !bridgeArg)
    throw new Error('usage: node sdk-editor.mjs <folder holding node_modules/@agentclientprotocol/sdk> <sandbox-acp>');
const modules = path.resolve(modulesArg);
const bridgeProgram = path.resolve(bridgeArg);
const require = createRequire(path.join(modules, 'package.json'));
const acp = await import(pathToFileURL(require.resolve('@agentclientprotocol/sdk')).href);
const sandboxctl = path.join(path.dirname(bridgeProgram), 'sandboxctl');
// The agent and the SDK it imports as a user installs them, in a folder the policy reads: an
// agent started with --confine-agent could not load them from a checkout or build under /tmp
// (a sandbox of the strongest tier has a private /tmp). Owner-only, made here and removed
// when the check ends; the folders each test writes outside its workspace are made in it too.
const privateRoot = fs.mkdtempSync('/var/tmp/acp-sdk-');
process.on('exit', () => fs.rmSync(privateRoot, { recursive: true, force: true }));
const agentModules = path.join(privateRoot, 'agent');
fs.mkdirSync(agentModules);
fs.copyFileSync(path.join(modules, 'package.json'), path.join(agentModules, 'package.json'));
fs.cpSync(path.join(modules, 'node_modules'), path.join(agentModules, 'node_modules'), { recursive: true });
const agentScript = path.join(agentModules, 'sdk-agent.mjs');
fs.copyFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'sdk-agent.mjs'), agentScript);

// One sandbox-acp with its own engine (configuration, state, HOME) and workspace.
class Bridge {
    constructor({ options = [], policy = null } = {}) {
        this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sdk-'));
        // Outside the workspace and outside /tmp (the sandbox has a private /tmp).
        this.outside = fs.mkdtempSync(path.join(privateRoot, 'outside-'));
        this.workspace = path.join(this.root, 'work');
        fs.mkdirSync(this.workspace);
        fs.mkdirSync(path.join(this.root, 'home/.ssh'), { recursive: true });
        this.env = {
            ...process.env,
            SANDBOX_CONFIG_DIR: path.join(this.root, 'config'),
            SANDBOX_STATE_DIR: path.join(this.root, 'state'),
            HOME: path.join(this.root, 'home'),
            // The test pack's backends ask questions while they prepare.
            ...(process.env.SANDBOX_TEST_PACK_DIR ? { SANDBOX_PACK_PATH: process.env.SANDBOX_TEST_PACK_DIR } : {}),
        };
        this.socket = path.join(this.root, 'run/engine.sock');
        if (policy) this.setPolicy(policy);
        this.stderr = '';
        this.permissionAnswer = null; // (params) => outcome, or a promise of one
        this.permissionsSeen = [];
        this.elicitationAnswer = null; // (params) => CreateElicitationResponse
        this.elicitationsSeen = [];
        this.child = spawn(
            bridgeProgram,
            ['--embedded', '--socket', this.socket, ...options, '--', process.execPath, agentScript, agentModules],
            { cwd: this.workspace, env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
        this.child.stderr.on('data', (data) => (this.stderr += data));
        this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
        const editor = acp
            .client({ name: 'sandbox-acp-sdk-editor' })
            .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
                this.permissionsSeen.push(params);
                return { outcome: await this.permissionAnswer(params) };
            })
            .onRequest(acp.methods.client.elicitation.create, async ({ params }) => {
                this.elicitationsSeen.push(params);
                return this.elicitationAnswer(params);
            })
            .onNotification(acp.methods.client.session.update, () => {});
        this.connection = editor.connect(
            acp.ndJsonStream(Writable.toWeb(this.child.stdin), Readable.toWeb(this.child.stdout)));
        this.agent = this.connection.agent;
    }

    // Resolves once sandbox-acp has written `text` to its stderr (false if it ends first).
    stderrShows(text) {
        return new Promise((resolve) => {
            const check = () => {
                if (!this.stderr.includes(text)) return false;
                this.child.stderr.off('data', check);
                resolve(true);
                return true;
            };
            if (check()) return;
            this.child.stderr.on('data', check);
            this.exited.then(() => resolve(this.stderr.includes(text)));
        });
    }

    // Changes the policy through sandboxctl (the client API), before the bridge starts.
    setPolicy(change) {
        const ctl = (args, input) => {
            const run = spawnSync(sandboxctl, ['--embedded', '--socket', this.socket, ...args], {
                env: this.env,
                input,
                encoding: 'utf8',
            });
            assert.equal(run.status, 0, `sandboxctl ${args.join(' ')}: ${run.stderr}`);
            return run.stdout;
        };
        const policy = JSON.parse(ctl(['policy', 'show', '--json']));
        change(policy);
        ctl(['policy', 'set', '-'], JSON.stringify(policy));
    }

    async handshake(capabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false }) {
        const init = await this.agent.request(acp.methods.agent.initialize, {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: capabilities,
        });
        assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
        this.session = await this.agent.buildSession(this.workspace).start();
        assert.match(this.session.sessionId, /^sdk-session-/);
        return this.session;
    }

    // One prompt turn carrying `order`; the agent's JSON report and the stop reason.
    // `onReport` sees every report as it arrives (the cancellation test acts on one).
    async turn(order, onReport = () => {}) {
        const reply = this.session.prompt(JSON.stringify(order));
        reply.catch(() => {});
        const reports = [];
        for (;;) {
            const message = await this.session.nextUpdate();
            if (message.kind === 'stop') return { report: reports.at(-1), stopReason: message.stopReason };
            if (message.update.sessionUpdate === 'agent_message_chunk' && message.update.content.type === 'text') {
                const value = JSON.parse(message.update.content.text);
                reports.push(value);
                await onReport(value);
            }
        }
    }

    async close() {
        this.connection.close();
        this.child.stdin.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), 30000);
        const status = await this.exited;
        clearTimeout(timer);
        fs.rmSync(this.root, { recursive: true, force: true });
        fs.rmSync(this.outside, { recursive: true, force: true });
        return status;
    }
}

// One call on the engine's own protocol (the socket sandbox-acp serves), as another
// presenter would make it: length-prefixed JSON-RPC frames, hello first. Answers no
// question, so the questions the call causes are left to sandbox-acp's editor.
function engineCall(socketPath, method, params) {
    return new Promise((resolve, reject) => {
        const socket = net.createConnection(socketPath);
        const frame = (object) => {
            const payload = Buffer.from(JSON.stringify(object));
            const header = Buffer.alloc(4);
            header.writeUInt32BE(payload.length);
            return Buffer.concat([header, payload]);
        };
        let buffer = Buffer.alloc(0);
        socket.on('connect', () => {
            socket.write(frame({ jsonrpc: '2.0', id: 0, method: 'hello', params: { protocolVersion: 1 } }));
            socket.write(frame({ jsonrpc: '2.0', id: 1, method, params }));
        });
        socket.on('data', (data) => {
            buffer = Buffer.concat([buffer, data]);
            while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) {
                const message = JSON.parse(buffer.subarray(4, 4 + buffer.readUInt32BE(0)).toString());
                buffer = buffer.subarray(4 + buffer.readUInt32BE(0));
                if (message.id === 1) {
                    socket.end();
                    resolve(message);
                }
            }
        });
        socket.on('error', reject);
    });
}

const naming = { source: 'atom-pack', packId: 'test-secrets', kind: 'naming' };
const offersForms = {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
    elicitation: { form: {} },
};

// How many host processes have `argument` among their arguments.
function hostProcessesWith(argument) {
    let count = 0;
    for (const pid of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        try {
            if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(argument)) ++count;
        } catch {
            // the process ended while we looked
        }
    }
    return count;
}

const tests = [];
// test(name, [settings,] body): settings are the Bridge's (options, policy).
const test = (name, ...rest) => tests.push({ name, settings: rest.length > 1 ? rest[0] : {}, body: rest.at(-1) });

test('initialize offers the agent the terminal and file-system capabilities', async (bridge) => {
    await bridge.handshake();
    const { report } = await bridge.turn({ order: 'capabilities' });
    assert.equal(report.terminal, true);
    assert.equal(report.fs.readTextFile, true);
    assert.equal(report.fs.writeTextFile, true);
});

test('terminal commands run confined by the active backend', async (bridge) => {
    await bridge.handshake();
    const outside = path.join(bridge.outside, 'escape.txt');
    const { report, stopReason } = await bridge.turn({
        order: 'terminal',
        script:
            'echo "$GREETING"; echo in > inside.txt && echo wrote-inside; ' +
            '(echo out > "$1") 2>/dev/null || echo outside-refused; exit 3',
        args: [outside],
        env: [{ name: 'GREETING', value: 'hello' }],
    });
    assert.equal(stopReason, 'end_turn');
    assert.match(report.terminalId, /./);
    assert.equal(report.exit.exitCode, 3);
    assert.equal(report.output.output, 'hello\nwrote-inside\noutside-refused\n');
    assert.equal(report.output.truncated, false);
    assert.equal(report.output.exitStatus.exitCode, 3);
    assert.ok(fs.existsSync(path.join(bridge.workspace, 'inside.txt')));
    assert.ok(!fs.existsSync(outside), 'the write outside the workspace reached the host');
    // A released terminal is gone, and the SDK sees the bridge's error.
    assert.equal(report.afterRelease.error.code, -32602);
    assert.ok(report.afterRelease.error.message.includes(report.terminalId));
});

test('file reads and writes follow the policy', async (bridge) => {
    const secret = path.join(bridge.root, 'home/.ssh/id_test');
    fs.writeFileSync(secret, 'PRIVATE KEY\n');
    const notes = path.join(bridge.workspace, 'notes.txt');
    fs.writeFileSync(notes, 'one\ntwo\nthree\n');
    const written = path.join(bridge.workspace, 'written.txt');
    const planted = path.join(bridge.outside, 'planted.txt');
    await bridge.handshake();
    const { report } = await bridge.turn({
        order: 'files',
        steps: {
            notes: { path: notes },
            part: { path: notes, range: { line: 2, limit: 1 } },
            secret: { path: secret },
            write: { path: written, write: 'héllo\n' },
            outside: { path: planted, write: 'x' },
            relative: { path: 'relative.txt', write: 'x' },
        },
    });
    assert.equal(report.notes.result.content, 'one\ntwo\nthree\n');
    assert.equal(report.part.result.content, 'two');
    assert.equal(report.secret.error.code, -32000);
    assert.ok(report.secret.error.message.includes(secret));
    assert.ok(!JSON.stringify(report.secret).includes('PRIVATE KEY'));
    assert.ok('result' in report.write, JSON.stringify(report.write));
    assert.equal(fs.readFileSync(written, 'utf8'), 'héllo\n');
    assert.equal(report.outside.error.code, -32000);
    assert.ok(!fs.existsSync(planted), 'the write outside the workspace reached the host');
    assert.equal(report.relative.error.code, -32602);
    assert.ok(report.relative.error.message.includes('params.path'));
});

// With hostExecution "ask", a command that would reach host channels is a Host Interaction
// question, which reaches the editor as session/request_permission.
async function hostChannels(bridge, answer) {
    const socketPath = `/run/sandbox-acp-sdk-${process.pid}.sock`;
    fs.rmSync(socketPath, { force: true });
    const service = net.createServer();
    await new Promise((resolve, reject) => service.listen(socketPath, resolve).on('error', reject));
    try {
        bridge.permissionAnswer = answer;
        await bridge.handshake();
        const { report } = await bridge.turn({
            order: 'terminal',
            script: 'test -S "$1" && echo exposed || echo hidden',
            args: [socketPath],
        });
        return report.output.output.trim();
    } finally {
        service.close();
    }
}

const askPolicy = (policy) => {
    policy.hostExecution = 'ask';
};
const pick = (kind) => (params) => ({
    outcome: 'selected',
    optionId: params.options.find((option) => option.kind === kind).optionId,
});

test('a permission the editor allows lets the command reach the host', { policy: askPolicy }, async (bridge) => {
    assert.equal(await hostChannels(bridge, pick('allow_once')), 'exposed');
    assert.equal(bridge.permissionsSeen.length, 1);
    const question = bridge.permissionsSeen[0];
    assert.equal(question.sessionId, bridge.session.sessionId);
    assert.ok(question.toolCall.title.length > 0);
    assert.deepEqual(
        question.options.map((option) => option.kind),
        ['allow_once', 'reject_once']);
});

test('a permission the editor rejects keeps the command confined', { policy: askPolicy }, async (bridge) => {
    assert.equal(await hostChannels(bridge, pick('reject_once')), 'hidden');
});

test('a permission the editor cancels is denied', { policy: askPolicy }, async (bridge) => {
    assert.equal(await hostChannels(bridge, () => ({ outcome: 'cancelled' })), 'hidden');
});

test(
    'a permission the editor leaves unanswered is denied',
    { policy: askPolicy, options: ['--answer-timeout', '1'] },
    async (bridge) => {
        assert.equal(await hostChannels(bridge, () => new Promise(() => {})), 'hidden');
    });

test("the agent's own permission requests reach the editor and its answer comes back", async (bridge) => {
    bridge.permissionAnswer = pick('allow_once');
    await bridge.handshake();
    const { report } = await bridge.turn({ order: 'ask', title: 'Edit notes.txt' });
    assert.deepEqual(report.result.outcome, { outcome: 'selected', optionId: 'yes' });
    assert.equal(bridge.permissionsSeen[0].toolCall.toolCallId, 'agent-call-1');
});

test('cancelling a turn ends the command the agent was running', async (bridge) => {
    await bridge.handshake();
    const marker = `600.${process.pid}`;
    const { report, stopReason } = await bridge.turn({ order: 'cancel', seconds: marker }, async (value) => {
        if (!value.started) return;
        for (const deadline = Date.now() + 30000; hostProcessesWith(marker) === 0; )
            assert.ok(Date.now() < deadline, 'the command never started');
        await bridge.agent.notify(acp.methods.agent.session.cancel, { sessionId: bridge.session.sessionId });
    });
    assert.equal(stopReason, 'cancelled');
    assert.equal(report.exit.exitCode, null);
    assert.equal(report.exit.signal, 'SIGKILL');
    assert.equal(hostProcessesWith(marker), 0);
});

test('the session goes on after malformed lines from the editor (tst_acp_bridge checks the errors)', async (bridge) => {
    await bridge.handshake();
    // Written past the SDK, as a broken editor would; the SDK's connection gets the errors.
    bridge.child.stdin.write('this is not json\n');
    bridge.child.stdin.write('{"jsonrpc":"2.0","id":"x-1","method":"session/prompt","params":"text"}\n');
    const { report } = await bridge.turn({ order: 'capabilities' });
    assert.equal(report.terminal, true);
});

test('an agent started with --confine-agent is confined too', { options: ['--confine-agent'] }, async (bridge) => {
    await bridge.handshake();
    const inside = path.join(bridge.workspace, 'by-agent.txt');
    const outside = path.join(bridge.outside, 'by-agent.txt');
    assert.deepEqual((await bridge.turn({ order: 'writeDirectly', path: inside })).report, { written: true });
    assert.equal((await bridge.turn({ order: 'writeDirectly', path: outside })).report.written, false);
    assert.ok(fs.existsSync(inside));
    assert.ok(!fs.existsSync(outside), 'the confined agent wrote outside the workspace');
    // Its terminals still run through the bridge.
    const { report } = await bridge.turn({ order: 'terminal', script: 'echo through-the-bridge' });
    assert.equal(report.output.output, 'through-the-bridge\n');
});

test('an agent that dies fails the pending prompt and ends the bridge with its status', async (bridge) => {
    await bridge.handshake();
    await assert.rejects(bridge.session.prompt(JSON.stringify({ order: 'die', status: 7 })), (error) => {
        assert.ok(String(error.message).includes('status 7'), String(error.message));
        return true;
    });
    assert.deepEqual(await bridge.exited, { code: 7, signal: null });
});

test('an editor that disconnects ends the bridge cleanly', async (bridge) => {
    await bridge.handshake();
    assert.deepEqual(await bridge.close(), { code: 0, signal: null });
});

test('a question answered with text reaches an editor that offers forms as a form elicitation', async (bridge) => {
    bridge.elicitationAnswer = () => ({ action: 'accept', content: { value: 'ok-alpha' } });
    await bridge.handshake(offersForms);
    const activation = await engineCall(bridge.socket, 'backends.activate', { ref: naming });
    assert.equal(activation.result?.ok, true, JSON.stringify(activation));
    assert.equal(bridge.elicitationsSeen.length, 1);
    const asked = bridge.elicitationsSeen[0];
    assert.equal(asked.mode, 'form');
    assert.equal(asked.sessionId, bridge.session.sessionId);
    assert.ok(asked.message.includes('Name the naming backend'));
    assert.deepEqual(asked.requestedSchema.required, ['value']);
    assert.equal(asked.requestedSchema.properties.value.type, 'string');
    assert.equal(asked.requestedSchema.properties.value.default, 'ok-default');
    assert.equal(bridge.permissionsSeen.length, 0);
});

test('the typed answer is the one the engine gets', async (bridge) => {
    bridge.elicitationAnswer = () => ({ action: 'accept', content: { value: 'not-ok' } });
    await bridge.handshake(offersForms);
    const activation = await engineCall(bridge.socket, 'backends.activate', { ref: naming });
    assert.equal(activation.result?.ok, false);
    assert.ok(activation.result.error.message.includes('"not-ok" does not start with ok-'), JSON.stringify(activation));
});

for (const [how, answer] of [
    ['declines', () => ({ action: 'decline' })],
    ['cancels', () => ({ action: 'cancel' })],
    ['fails', () => Promise.reject(new acp.RequestError(-32603, 'the form could not be shown'))],
]) {
    test(`a form the editor ${how} is denied`, async (bridge) => {
        bridge.elicitationAnswer = answer;
        await bridge.handshake(offersForms);
        const activation = await engineCall(bridge.socket, 'backends.activate', { ref: naming });
        assert.equal(bridge.elicitationsSeen.length, 1);
        assert.equal(activation.result?.ok, false);
        assert.ok(activation.result.error.message.includes('no name was given'), JSON.stringify(activation));
    });
}

test('a question answered with text is refused at once when the editor offers no forms', async (bridge) => {
    bridge.elicitationAnswer = () => assert.fail('the editor offered no forms');
    await bridge.handshake();
    const activation = await engineCall(bridge.socket, 'backends.activate', { ref: naming });
    assert.equal(activation.result?.ok, false);
    assert.ok(activation.result.error.message.includes('no name was given'), JSON.stringify(activation));
    assert.equal(bridge.elicitationsSeen.length, 0);
    assert.ok(await bridge.stderrShows('offers no form elicitation'), bridge.stderr);
});

test('a question answered with text before any session is refused at once', async (bridge) => {
    bridge.elicitationAnswer = () => assert.fail('a form was asked for outside any session');
    await bridge.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: offersForms,
    });
    const activation = await engineCall(bridge.socket, 'backends.activate', { ref: naming });
    assert.equal(activation.result?.ok, false);
    assert.equal(bridge.elicitationsSeen.length, 0);
    assert.ok(await bridge.stderrShows('no session is open yet'), bridge.stderr);
});

let failed = 0;
for (const { name, settings, body } of tests) {
    const bridge = new Bridge(settings);
    try {
        await body(bridge);
        console.log(`PASS ${name}`);
    } catch (error) {
        ++failed;
        console.log(`FAIL ${name}\n${error.stack}\nsandbox-acp stderr:\n${bridge.stderr}`);
    } finally {
        await bridge.close();
    }
}
console.log(`${tests.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
