// A local E2B for tests: E2B's REST control plane (X-API-Key, its JSON bodies and error
// statuses), envd's process service over the Connect protocol (JSON envelopes, server
// streaming, end-of-stream errors, keepalives), envd's file API (GET/POST /files) and its
// filesystem Remove, on one loopback port. It stands for E2B's cloud VMs by running each
// command as a real local process in the sandbox's scratch folder; it confines nothing and
// is a test server only.
//
// Usage: node local-e2b-server.mjs --key KEY [--port N] [--root DIR] [--template NAME]...
//        [--exit-with-stdin] (ends when its stdin closes: when the test that started it is gone)
// Prints "listening on http://127.0.0.1:PORT" once ready. envd is reached on the same port,
// the sandbox named by the E2b-Sandbox-Id header (as the SDK's sandbox URL does) or by a
// Host of the form 49983-<sandboxId>.<domain>.
//
// Test-only controls, outside E2B's protocol, under /_local/ (loopback only, no key):
//   POST /_local/controls {...} sets any of
//     timeoutCapSeconds: N   no sandbox lives longer than N s after its creation or last
//                            timeout refresh (null: no cap); applies to the running ones too
//     ignoreSignals: bool    SendSignal answers OK and does nothing
//     keepaliveMs: N         keepalives every N ms, whatever the client asked for
//     truncateDownloadAfterBytes: N   GET /files sends N bytes of the file, then cuts the
//                            connection; a `tar -c` process's output stops after N bytes and
//                            its stream ends without the end event (null: off)
//     revokeKey: bool        the control plane answers 401 to every call, as for a revoked key
//     refuseDelete: bool     DELETE /sandboxes/<id> answers 500 and deletes nothing
//     refuseRefresh: bool    POST /sandboxes/<id>/timeout answers 500
//     v1Only: bool           no /v2 routes (404), as an API before them
//     envdVersion: "x.y.z"   the envd version of sandboxes created from now on: before 0.4.0
//                            envd calls need "Authorization: Basic" naming the user, before
//                            0.5.7 file uploads must be multipart (null: 0.5.7)
//   GET /_local/stats -> { created, deleted, expired, live, refreshes, listed, listedV2 }
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

const options = { key: '', port: 0, root: '', templates: [], exitWithStdin: false };
for (let i = 2; i < process.argv.length; i += 2) {
    const [name, value] = [process.argv[i], process.argv[i + 1]];
    if (name === '--exit-with-stdin') {
        options.exitWithStdin = true;
        i -= 1;
        continue;
    }
    if (value === undefined) fatal(`${name} needs a value`);
    if (name === '--key') options.key = value;
    else if (name === '--port') options.port = Number(value);
    else if (name === '--root') options.root = value;
    else if (name === '--template') options.templates.push(value);
    else fatal(`unknown option ${name}`);
}
if (!options.key) fatal('--key is required');
if (options.templates.length === 0) options.templates.push('base');
const root = options.root || mkdtempSync(path.join(tmpdir(), 'local-e2b-'));
mkdirSync(root, { recursive: true });

const envdVersion = '0.5.7';
const sandboxes = new Map(); // id -> { id, templateID, token, dir, internet, endAt, timer, processes }
const controls = { timeoutCapSeconds: null, ignoreSignals: false, keepaliveMs: null, truncateDownloadAfterBytes: null, revokeKey: false, refuseDelete: false, refuseRefresh: false, v1Only: false, envdVersion: null };
const stats = { created: 0, deleted: 0, expired: 0, refreshes: 0, listed: 0, listedV2: 0 };

function fatal(message) {
    process.stderr.write(`local-e2b-server: ${message}\n`);
    process.exit(2);
}

function newId(length) {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    return Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
}

function readBody(request) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        request.on('data', (chunk) => chunks.push(chunk));
        request.on('end', () => resolve(Buffer.concat(chunks)));
        request.on('error', reject);
    });
}

function sendJson(response, status, body) {
    const text = body === undefined ? '' : JSON.stringify(body);
    response.writeHead(status, text ? { 'Content-Type': 'application/json' } : {});
    response.end(text);
}

// The control plane's error shape: { code, message }.
function apiError(response, status, message) {
    sendJson(response, status, { code: status, message });
}

function parseJson(buffer) {
    if (buffer.length === 0) return {};
    try {
        const value = JSON.parse(buffer.toString('utf8'));
        return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
    } catch {
        return undefined;
    }
}

function info(sandbox) {
    return {
        sandboxID: sandbox.id,
        templateID: sandbox.templateID,
        clientID: 'local',
        alias: sandbox.templateID,
        startedAt: sandbox.startedAt.toISOString(),
        endAt: new Date(sandbox.endAt).toISOString(),
        state: 'running',
        cpuCount: 2,
        memoryMB: 512,
        diskSizeMB: 1024,
        envdVersion: sandbox.envdVersion,
        metadata: sandbox.metadata,
        allowInternetAccess: sandbox.internet,
    };
}

function schedule(sandbox, seconds) {
    clearTimeout(sandbox.timer);
    if (controls.timeoutCapSeconds !== null) seconds = Math.min(seconds, controls.timeoutCapSeconds);
    sandbox.endAt = Date.now() + seconds * 1000;
    sandbox.timer = setTimeout(() => {
        stats.expired += 1;
        destroy(sandbox);
    }, seconds * 1000);
}

function destroy(sandbox) {
    clearTimeout(sandbox.timer);
    sandboxes.delete(sandbox.id);
    for (const proc of sandbox.processes.values()) signalGroup(proc, 'SIGKILL');
    rmSync(sandbox.dir, { recursive: true, force: true });
}

function signalGroup(proc, signal) {
    try {
        process.kill(-proc.child.pid, signal);
    } catch {
        // already gone
    }
}

async function localControls(request, response, url) {
    if (url.pathname === '/_local/stats' && request.method === 'GET')
        return sendJson(response, 200, { ...stats, live: sandboxes.size });
    if (url.pathname !== '/_local/controls' || request.method !== 'POST')
        return apiError(response, 404, `no route ${request.method} ${url.pathname}`);
    const body = parseJson(await readBody(request));
    if (body === undefined) return apiError(response, 400, 'the body is not a JSON object');
    for (const [name, value] of Object.entries(body)) {
        if (!(name in controls)) return apiError(response, 400, `unknown control ${name}`);
        controls[name] = value;
    }
    if (controls.timeoutCapSeconds !== null)
        for (const sandbox of sandboxes.values())
            schedule(sandbox, Math.max(0, Math.ceil((sandbox.endAt - Date.now()) / 1000)));
    return sendJson(response, 200, controls);
}

async function controlPlane(request, response, url) {
    if (url.pathname.startsWith('/_local/')) return localControls(request, response, url);
    if (controls.revokeKey || request.headers['x-api-key'] !== options.key)
        return apiError(response, 401, 'Invalid API key, it must start with e2b_ and be a valid key');
    const parts = url.pathname.split('/').filter(Boolean);
    const v2 = parts[0] === 'v2';
    if (v2 && controls.v1Only) return apiError(response, 404, `no route ${url.pathname}`);
    if (v2) parts.shift();
    if (parts[0] !== 'sandboxes') return apiError(response, 404, `no route ${url.pathname}`);
    const body = parseJson(await readBody(request));
    if (body === undefined) return apiError(response, 400, 'the body is not a JSON object');
    if (parts.length === 1 && request.method === 'GET') {
        stats.listed += 1;
        if (v2) stats.listedV2 += 1;
        return sendJson(response, 200, [...sandboxes.values()].map(info));
    }
    if (parts.length === 1 && request.method === 'POST') {
        const templateID = body.templateID;
        if (typeof templateID !== 'string') return apiError(response, 400, 'templateID is required');
        if (!options.templates.includes(templateID))
            return apiError(response, 404, `template '${templateID}' not found`);
        const timeout = body.timeout === undefined ? 15 : body.timeout;
        if (!Number.isInteger(timeout) || timeout < 0 || timeout > 86400)
            return apiError(response, 400, 'timeout must be a whole number of seconds up to 86400');
        const id = newId(20);
        const dir = path.join(root, id);
        mkdirSync(path.join(dir, 'home'), { recursive: true });
        const sandbox = {
            id,
            templateID,
            token: newId(32),
            dir,
            internet: body.allow_internet_access !== false,
            metadata: body.metadata || {},
            startedAt: new Date(),
            processes: new Map(),
            envdVersion: controls.envdVersion || envdVersion,
        };
        sandboxes.set(id, sandbox);
        stats.created += 1;
        schedule(sandbox, timeout);
        return sendJson(response, 201, {
            sandboxID: id,
            templateID,
            clientID: 'local',
            alias: templateID,
            envdVersion: sandbox.envdVersion,
            envdAccessToken: sandbox.token,
            domain: null,
        });
    }
    const sandbox = sandboxes.get(parts[1]);
    if (!sandbox) return apiError(response, 404, `sandbox "${parts[1]}" not found`);
    if (parts.length === 2 && request.method === 'GET') return sendJson(response, 200, info(sandbox));
    if (parts.length === 2 && request.method === 'DELETE') {
        if (controls.refuseDelete) return apiError(response, 500, 'the sandbox could not be deleted');
        stats.deleted += 1;
        destroy(sandbox);
        response.writeHead(204);
        return response.end();
    }
    if (parts.length === 3 && parts[2] === 'timeout' && request.method === 'POST') {
        if (!Number.isInteger(body.timeout) || body.timeout < 0)
            return apiError(response, 400, 'timeout must be a whole number of seconds');
        if (controls.refuseRefresh) return apiError(response, 500, 'the timeout could not be set');
        stats.refreshes += 1;
        schedule(sandbox, body.timeout);
        response.writeHead(204);
        return response.end();
    }
    return apiError(response, 404, `no route ${request.method} ${url.pathname}`);
}

// --- envd: the Connect protocol ---------------------------------------------------------

function envelope(flags, object) {
    const message = Buffer.from(JSON.stringify(object), 'utf8');
    const head = Buffer.alloc(5);
    head.writeUInt8(flags, 0);
    head.writeUInt32BE(message.length, 1);
    return Buffer.concat([head, message]);
}

function takeEnvelopes(buffer) {
    const messages = [];
    let offset = 0;
    while (buffer.length - offset >= 5) {
        const flags = buffer.readUInt8(offset);
        const size = buffer.readUInt32BE(offset + 1);
        if (buffer.length - offset < 5 + size) break;
        messages.push({ flags, message: buffer.subarray(offset + 5, offset + 5 + size) });
        offset += 5 + size;
    }
    return { messages, rest: buffer.subarray(offset) };
}

const httpStatusOf = {
    invalid_argument: 400,
    unauthenticated: 401,
    permission_denied: 403,
    failed_precondition: 400,
    not_found: 404,
    deadline_exceeded: 504,
    unimplemented: 501,
    internal: 500,
    unavailable: 503,
};

function unaryError(response, code, message) {
    response.writeHead(httpStatusOf[code] || 500, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ code, message }));
}

function unaryOk(response, body = {}) {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
}

function signalOf(value) {
    if (value === 'SIGNAL_SIGKILL' || value === 9) return 'SIGKILL';
    if (value === 'SIGNAL_SIGTERM' || value === 15) return 'SIGTERM';
    return undefined;
}

function findSandbox(request) {
    const named = request.headers['e2b-sandbox-id'];
    if (named) return sandboxes.get(String(named));
    const host = String(request.headers.host || '');
    const match = /^(\d+)-([a-z0-9]+)\./.exec(host);
    return match && Number(match[1]) === 49983 ? sandboxes.get(match[2]) : undefined;
}

function selectProcess(sandbox, selector) {
    if (!selector || typeof selector !== 'object') return undefined;
    if (selector.pid !== undefined) return sandbox.processes.get(Number(selector.pid));
    if (selector.tag !== undefined) return [...sandbox.processes.values()].find((p) => p.tag === selector.tag);
    return undefined;
}

function startProcess(sandbox, request, response, body) {
    const config = body.process;
    const streamError = (code, message) => {
        response.end(envelope(0x02, { error: { code, message } }));
    };
    response.writeHead(200, { 'Content-Type': 'application/connect+json' });
    if (!config || typeof config.cmd !== 'string' || config.cmd === '')
        return streamError('invalid_argument', 'process.cmd is required');
    const home = path.join(sandbox.dir, 'home');
    const cwd = config.cwd ? path.resolve(home, config.cwd) : home;
    const env = { PATH: process.env.PATH, HOME: home, USER: 'user', ...(config.envs || {}) };
    let child;
    try {
        child = spawn(config.cmd, Array.isArray(config.args) ? config.args : [], {
            cwd,
            env,
            detached: true,
            stdio: [body.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
        });
    } catch (error) {
        return streamError('internal', `error starting process: ${error.message}`);
    }
    const send = (event) => {
        if (!response.writableEnded) response.write(envelope(0, { event }));
    };
    let started = false;
    let keepalive;
    let deadline;
    const stop = () => {
        clearInterval(keepalive);
        clearTimeout(deadline);
    };
    child.on('error', (error) => {
        stop();
        if (!started) streamError('internal', `error starting process: ${error.message}`);
    });
    child.on('spawn', () => {
        started = true;
        const proc = { child, tag: body.tag, config };
        sandbox.processes.set(child.pid, proc);
        send({ start: { pid: child.pid } });
        const interval = controls.keepaliveMs || Number(request.headers['keepalive-ping-interval']) * 1000;
        if (interval > 0) keepalive = setInterval(() => send({ keepalive: {} }), interval);
        const timeoutMs = Number(request.headers['connect-timeout-ms']);
        if (timeoutMs > 0)
            deadline = setTimeout(() => {
                stop();
                signalGroup(proc, 'SIGKILL');
                streamError('deadline_exceeded', 'the deadline of the call was exceeded');
            }, timeoutMs);
    });
    // The truncation control: a `tar -c` sends part of its archive and no end event.
    const args = Array.isArray(config.args) ? config.args : [];
    const cut = controls.truncateDownloadAfterBytes !== null && path.basename(config.cmd) === 'tar' && args.includes('-c')
        ? controls.truncateDownloadAfterBytes
        : null;
    let sent = 0;
    child.stdout.on('data', (data) => {
        if (cut !== null) {
            data = data.subarray(0, Math.max(0, cut - sent));
            sent += data.length;
            if (data.length === 0) return;
        }
        send({ data: { stdout: data.toString('base64') } });
    });
    child.stderr.on('data', (data) => send({ data: { stderr: data.toString('base64') } }));
    if (child.stdin) child.stdin.on('error', () => {});
    child.on('close', (code, signal) => {
        stop();
        sandbox.processes.delete(child.pid);
        if (!started || response.writableEnded) return;
        if (cut !== null) return response.end(envelope(0x02, {}));
        const end = signal
            ? { exitCode: -1, exited: false, status: `signal: ${{ SIGKILL: 'killed', SIGTERM: 'terminated', SIGINT: 'interrupt', SIGHUP: 'hangup' }[signal] || signal}` }
            : { exitCode: code, exited: true, status: `exit status ${code}` };
        send({ end });
        response.end(envelope(0x02, {}));
    });
}

// envd's file API: GET /files?path= sends a file, POST /files?path= writes one (the body
// as application/octet-stream, or multipart/form-data parts named "file"); a relative path
// is in the user's home.
function filePath(sandbox, name) {
    const home = path.join(sandbox.dir, 'home');
    return path.resolve(home, name || '');
}

function multipartFiles(contentType, body) {
    const match = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
    if (!match) return undefined;
    const boundary = Buffer.from(`--${match[1] || match[2]}`);
    const files = [];
    let offset = body.indexOf(boundary);
    while (offset >= 0) {
        const start = offset + boundary.length;
        if (body.subarray(start, start + 2).toString() === '--') break;
        const headerEnd = body.indexOf('\r\n\r\n', start);
        const next = body.indexOf(boundary, start);
        if (headerEnd < 0 || next < 0) return undefined;
        const headers = body.subarray(start, headerEnd).toString('utf8');
        const name = /name="([^"]*)"/.exec(headers);
        const filename = /filename="([^"]*)"/.exec(headers);
        if (name && name[1] === 'file')
            files.push({ filename: filename ? filename[1] : '', data: body.subarray(headerEnd + 4, next - 2) });
        offset = next;
    }
    return files;
}

async function files(sandbox, request, response, url) {
    const name = url.searchParams.get('path');
    if (request.method === 'GET') {
        const target = filePath(sandbox, name);
        let size;
        try {
            const stat = statSync(target);
            if (!stat.isFile()) return sendJson(response, 400, { code: 400, message: `path '${name}' is not a file` });
            size = stat.size;
        } catch {
            return sendJson(response, 404, { code: 404, message: `path '${name}' does not exist` });
        }
        response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
        const cut = controls.truncateDownloadAfterBytes;
        const stream = createReadStream(target, cut === null ? {} : { end: Math.max(0, cut - 1) });
        stream.on('end', () => (cut === null ? response.end() : response.destroy()));
        return stream.pipe(response, { end: false });
    }
    if (request.method !== 'POST') return sendJson(response, 405, { code: 405, message: 'method not allowed' });
    const contentType = String(request.headers['content-type'] || '');
    const written = [];
    if (contentType.startsWith('application/octet-stream')) {
        if (olderThan(sandbox.envdVersion, '0.5.7'))
            return sendJson(response, 400, { code: 400, message: 'this envd takes multipart/form-data uploads only' });
        if (!name) return sendJson(response, 400, { code: 400, message: 'path is required with application/octet-stream' });
        const target = filePath(sandbox, name);
        mkdirSync(path.dirname(target), { recursive: true });
        await new Promise((resolve, reject) => {
            const out = createWriteStream(target);
            request.pipe(out);
            out.on('finish', resolve);
            out.on('error', reject);
        });
        written.push(target);
    } else if (contentType.startsWith('multipart/form-data')) {
        const parts = multipartFiles(contentType, await readBody(request));
        if (!parts) return sendJson(response, 400, { code: 400, message: 'the multipart body cannot be read' });
        for (const part of parts) {
            const target = filePath(sandbox, parts.length === 1 && name ? name : part.filename);
            mkdirSync(path.dirname(target), { recursive: true });
            await new Promise((resolve, reject) => {
                const out = createWriteStream(target);
                out.on('finish', resolve);
                out.on('error', reject);
                out.end(part.data);
            });
            written.push(target);
        }
    } else {
        return sendJson(response, 400, { code: 400, message: `unsupported content type ${contentType}` });
    }
    return sendJson(response, 200, written.map((p) => ({ path: p, name: path.basename(p), type: 'file' })));
}

function olderThan(version, than) {
    const a = version.split('.').map(Number);
    const b = than.split('.').map(Number);
    for (let i = 0; i < 3; ++i) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0);
    return false;
}

// envd before 0.4.0 has no default user: each call names one, in a Basic header (or, for
// the file API, the username parameter).
function userMissing(sandbox, request, url) {
    if (!olderThan(sandbox.envdVersion, '0.4.0')) return false;
    const header = String(request.headers.authorization || '');
    const named = header.startsWith('Basic ') && Buffer.from(header.slice(6), 'base64').toString().split(':')[0];
    return !named && !(url && url.searchParams.get('username'));
}

// envd's filesystem service, the one call the backend uses: Remove (unary, JSON).
const sandbox_ = (request) => findSandbox(request);
async function removeFile(sandbox, request, response) {
    if (request.headers['x-access-token'] !== sandbox.token || userMissing(sandbox, request))
        return unaryError(response, 'unauthenticated', 'invalid access token or no user');
    const body = parseJson(await readBody(request));
    if (!body || typeof body.path !== 'string') return unaryError(response, 'invalid_argument', 'path is required');
    rmSync(filePath(sandbox, body.path), { recursive: true, force: true });
    return unaryOk(response);
}

async function envd(request, response, url) {
    if (url.pathname === '/health' && request.method === 'GET') {
        response.writeHead(204);
        return response.end();
    }
    if (url.pathname === '/filesystem.Filesystem/Remove' && sandbox_(request)) return removeFile(sandbox_(request), request, response);
    const match = /^\/process\.Process\/(\w+)$/.exec(url.pathname);
    const sandbox = findSandbox(request);
    const streaming = match && (match[1] === 'Start' || match[1] === 'Connect');
    const fail = (code, message) => {
        if (!streaming) return unaryError(response, code, message);
        response.writeHead(200, { 'Content-Type': 'application/connect+json' });
        response.end(envelope(0x02, { error: { code, message } }));
    };
    if (!sandbox) {
        response.writeHead(502, { 'Content-Type': 'application/json' });
        return response.end(JSON.stringify({ code: 502, message: 'The sandbox was not found', sandboxId: request.headers['e2b-sandbox-id'] || '' }));
    }
    if (url.pathname === '/files') {
        if (request.headers['x-access-token'] !== sandbox.token || userMissing(sandbox, request, url))
            return sendJson(response, 401, { code: 401, message: 'invalid access token or no user' });
        return files(sandbox, request, response, url);
    }
    if (!match || request.method !== 'POST') return unaryError(response, 'not_found', `no route ${url.pathname}`);
    if (request.headers['x-access-token'] !== sandbox.token) return fail('unauthenticated', 'invalid access token');
    if (userMissing(sandbox, request)) return fail('unauthenticated', 'no user was named');
    const raw = await readBody(request);
    const contentType = String(request.headers['content-type'] || '');
    let body;
    if (streaming) {
        if (contentType !== 'application/connect+json')
            return unaryError(response, 'invalid_argument', `streaming calls take application/connect+json, not ${contentType}`);
        const { messages } = takeEnvelopes(raw);
        if (messages.length !== 1 || messages[0].flags !== 0) return fail('invalid_argument', 'expected one request envelope');
        body = parseJson(messages[0].message);
    } else {
        if (contentType !== 'application/json')
            return unaryError(response, 'invalid_argument', `unary calls take application/json, not ${contentType}`);
        body = parseJson(raw);
    }
    if (body === undefined) return fail('invalid_argument', 'the request is not a JSON object');
    schedule(sandbox, Math.max(0, Math.round((sandbox.endAt - Date.now()) / 1000)));
    switch (match[1]) {
        case 'Start':
            return startProcess(sandbox, request, response, body);
        case 'List':
            return unaryOk(response, {
                processes: [...sandbox.processes.entries()].map(([pid, p]) => ({ pid, tag: p.tag, config: p.config })),
            });
        case 'SendInput': {
            const proc = selectProcess(sandbox, body.process);
            if (!proc) return unaryError(response, 'not_found', 'process not found');
            if (!proc.child.stdin || proc.child.stdin.destroyed) return unaryError(response, 'failed_precondition', 'stdin is closed');
            const data = body.input && typeof body.input.stdin === 'string' ? Buffer.from(body.input.stdin, 'base64') : Buffer.alloc(0);
            return proc.child.stdin.write(data, () => unaryOk(response));
        }
        case 'CloseStdin': {
            const proc = selectProcess(sandbox, body.process);
            if (!proc) return unaryError(response, 'not_found', 'process not found');
            if (proc.child.stdin) proc.child.stdin.end();
            return unaryOk(response);
        }
        case 'SendSignal': {
            const proc = selectProcess(sandbox, body.process);
            if (!proc) return unaryError(response, 'not_found', 'process not found');
            const signal = signalOf(body.signal);
            if (!signal) return unaryError(response, 'invalid_argument', `unknown signal ${JSON.stringify(body.signal)}`);
            if (!controls.ignoreSignals) signalGroup(proc, signal);
            return unaryOk(response);
        }
        default:
            return fail('unimplemented', `process.Process/${match[1]} is not implemented by the local E2B`);
    }
}

const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://local');
    const isEnvd = request.headers['e2b-sandbox-id'] !== undefined || /^49983-/.test(String(request.headers.host || '')) || url.pathname.startsWith('/process.') || url.pathname === '/files' || url.pathname.startsWith('/filesystem.');
    (isEnvd ? envd : controlPlane)(request, response, url).catch((error) => {
        if (!response.headersSent) apiError(response, 500, String(error));
        else response.end();
    });
});
server.keepAliveTimeout = 60000;
server.listen(options.port, '127.0.0.1', () => {
    process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
function shutdown() {
    for (const sandbox of [...sandboxes.values()]) destroy(sandbox);
    if (!options.root) rmSync(root, { recursive: true, force: true });
    process.exit(0);
}
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, shutdown);
if (options.exitWithStdin) {
    process.stdin.on('end', shutdown);
    process.stdin.resume();
}
