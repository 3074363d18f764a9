// A scripted ACP agent built on the official SDK's agent side, run behind sandbox-acp by
// sdk-editor.mjs. Each prompt is one JSON order; the agent carries it out with the client
// methods the bridge serves (terminal/*, fs/*, session/request_permission) and reports what
// it saw as one agent_message_chunk holding JSON, then ends the turn.
//   node sdk-agent.mjs MODULES   (MODULES holds node_modules/@agentclientprotocol/sdk)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const modules = process.argv[2];
if (!modules) throw new Error('usage: node sdk-agent.mjs <folder holding node_modules/@agentclientprotocol/sdk>');
const require = createRequire(path.join(path.resolve(modules), 'package.json'));
const acp = await import(pathToFileURL(require.resolve('@agentclientprotocol/sdk')).href);

let offered = null; // the client capabilities initialize brought
const cancelled = new Map(); // sessionId -> resolve function of the running prompt's cancellation
let nextSession = 1;

// A refusal as data: the JSON-RPC error the client method came back with.
function errorOf(error) {
    return { code: error?.code ?? null, message: String(error?.message ?? error) };
}

async function settle(promise) {
    try {
        return { result: await promise };
    } catch (error) {
        return { error: errorOf(error) };
    }
}

async function report(client, sessionId, value) {
    await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: JSON.stringify(value) } },
    });
}

// Runs one command in a client terminal to its end; its output and exit status, or the refusal.
async function runTerminal(client, sessionId, command, args, extra = {}) {
    let terminal;
    try {
        terminal = await client.createTerminal({ sessionId, command, args, ...extra });
    } catch (error) {
        return { error: errorOf(error) };
    }
    const exit = await terminal.waitForExit();
    const output = await terminal.currentOutput();
    await terminal.release();
    const afterRelease = await settle(client.request(acp.methods.client.terminal.output, { sessionId, terminalId: terminal.id }));
    return { terminalId: terminal.id, exit, output, afterRelease };
}

const orders = {
    capabilities: async () => offered,

    terminal: async (client, sessionId, order) =>
        runTerminal(client, sessionId, '/bin/sh', ['-c', order.script, 'sh', ...(order.args ?? [])], {
            env: order.env ?? [],
            ...(order.outputByteLimit ? { outputByteLimit: order.outputByteLimit } : {}),
        }),

    files: async (client, sessionId, order) => {
        const result = {};
        for (const [name, step] of Object.entries(order.steps)) {
            if (step.write !== undefined)
                result[name] = await settle(
                    client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: step.path, content: step.write }));
            else
                result[name] = await settle(
                    client.request(acp.methods.client.fs.readTextFile, { sessionId, path: step.path, ...(step.range ?? {}) }));
        }
        return result;
    },

    // The agent's own permission request, relayed by the bridge to the editor and back.
    ask: async (client, sessionId, order) =>
        settle(
            client.request(acp.methods.client.session.requestPermission, {
                sessionId,
                toolCall: { toolCallId: 'agent-call-1', title: order.title, kind: 'edit', status: 'pending' },
                options: [
                    { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
                    { optionId: 'no', name: 'No', kind: 'reject_once' },
                ],
            })),

    // A long command that runs until the editor cancels the turn; then killed and released.
    cancel: async (client, sessionId, order) => {
        const wasCancelled = new Promise((resolve) => cancelled.set(sessionId, resolve));
        const terminal = await client.createTerminal({ sessionId, command: '/bin/sleep', args: [order.seconds] });
        await report(client, sessionId, { started: terminal.id });
        await wasCancelled;
        await terminal.kill();
        const exit = await terminal.waitForExit();
        await terminal.release();
        return { stopReason: 'cancelled', exit };
    },

    // A write of the agent's own, not through the client: confined only when the agent is.
    writeDirectly: async (_client, _sessionId, order) => {
        try {
            fs.writeFileSync(order.path, 'by the agent\n');
            return { written: true };
        } catch (error) {
            return { written: false, error: error.code };
        }
    },

    die: async (_client, _sessionId, order) => process.exit(order.status),
};

const app = acp
    .agent({ name: 'sandbox-acp-sdk-agent' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
        offered = params.clientCapabilities ?? null;
        return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] };
    })
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `sdk-session-${nextSession++}` }))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        cancelled.get(params.sessionId)?.();
        cancelled.delete(params.sessionId);
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
        const text = params.prompt.find((block) => block.type === 'text')?.text ?? '';
        const order = JSON.parse(text);
        const run = orders[order.order];
        if (!run) throw acp.RequestError.invalidParams({ order: order.order }, `unknown order ${order.order}`);
        const outcome = await run(client, params.sessionId, order);
        if (outcome && outcome.stopReason === 'cancelled') {
            await report(client, params.sessionId, outcome);
            return { stopReason: 'cancelled' };
        }
        await report(client, params.sessionId, outcome);
        return { stopReason: 'end_turn' };
    });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
