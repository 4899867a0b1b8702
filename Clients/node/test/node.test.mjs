// @actionable/node against a real `actionable serve` (and the stand-in FCM it sends to), with
// Node's own test runner: `node --test Clients/node/test/`. ACTIONABLE_BINARY names the
// `actionable` binary (the Swift test that runs this sets it); the example categories are the
// repository's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
    verifyWebhook, WebhookVerificationError, payloadDigest, canonicalPayload, mintActionToken, ActionableServer, ProblemError, jsonText,
} from "../dist/index.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repository = path.resolve(here, "../../..");
const binary = process.env.ACTIONABLE_BINARY ?? path.join(repository, ".build/debug/actionable");
const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64");
const oldSecret = "whsec_" + Buffer.alloc(32, 9).toString("base64");
const tokenKey = { id: "k1", secret: "node-test-token-key-of-at-least-32-bytes!" };
const backendToken = "node-test-backend-token-0123456789abcdef";

/** The vectors the Swift tests run too: `{"$bigint": digits}` is a BigInt. */
const vectors = JSON.parse(fs.readFileSync(path.join(repository, "Tests/Vectors/payload-digests.json"), "utf8")).vectors;
const bigints = (key, value) =>
    value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && typeof value.$bigint === "string"
        ? BigInt(value.$bigint) : value;

test("payload digests are the server's, vector by vector", () => {
    assert.ok(vectors.length >= 5);
    for (const vector of vectors) {
        const category = { category: "vector", payload: vector.schema };
        const payload = JSON.parse(vector.payload, bigints);
        assert.equal(canonicalPayload(category, payload), vector.canonical, vector.name);
        assert.equal(payloadDigest(category, payload), vector.digest, vector.name);
    }
});

test("the package is @actionable/node from CommonJS and from ESM, one implementation", () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "actionable-node-"));
    try {
        fs.mkdirSync(path.join(scratch, "node_modules/@actionable"), { recursive: true });
        fs.symlinkSync(path.resolve(here, ".."), path.join(scratch, "node_modules/@actionable/node"), "dir");
        fs.writeFileSync(path.join(scratch, "a.cjs"),
            'const a = require("@actionable/node"); console.log(typeof a.verifyWebhook, typeof a.mintActionToken, typeof a.ActionableServer, new a.ProblemError(404, {type: "t", title: "x", status: 404}) instanceof Error);');
        fs.writeFileSync(path.join(scratch, "b.mjs"),
            'import { verifyWebhook, mintActionToken, ActionableServer, WebhookVerificationError } from "@actionable/node"; import * as c from "@actionable/node"; import { createRequire } from "node:module"; const cjs = createRequire(import.meta.url)("@actionable/node"); console.log(typeof verifyWebhook, typeof mintActionToken, typeof ActionableServer, WebhookVerificationError === cjs.WebhookVerificationError, typeof c.payloadDigest);');
        const commonjs = spawnSync(process.execPath, ["a.cjs"], { cwd: scratch, encoding: "utf8" });
        assert.equal(commonjs.status, 0, commonjs.stderr);
        assert.equal(commonjs.stdout.trim(), "function function function true");
        const esm = spawnSync(process.execPath, ["b.mjs"], { cwd: scratch, encoding: "utf8" });
        assert.equal(esm.status, 0, esm.stderr);
        assert.equal(esm.stdout.trim(), "function function function true function");
    } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
    }
});

// ------------------------------------------------------------------------------------------
// Against a real serve

async function freePort() {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.on("error", reject);
        server.listen(0, "127.0.0.1", () => {
            const { port } = server.address();
            server.close(() => resolve(port));
        });
    });
}

/** Starts `binary ARGS` in `cwd` and resolves once its output matches `pattern` (with the match). */
function start(args, cwd, pattern) {
    const child = spawn(binary, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    // A binary that cannot be started (not built, a wrong ACTIONABLE_BINARY) is an error, not a wait.
    child.on("error", (error) => child.emit("exit", `an error (${error.message})`));
    let output = "";
    const ready = new Promise((resolve, reject) => {
        const read = (chunk) => {
            output += chunk;
            const match = output.match(pattern);
            if (match) resolve(match);
        };
        child.stdout.on("data", read);
        child.stderr.on("data", read);
        child.on("exit", (code) => reject(new Error(`${args[0]} exited with ${code} before it was ready:\n${output}`)));
    });
    return { child, ready, output: () => output };
}

let directory, standIn, server, receiver, port;
const received = [];
const waiters = [];

before(async () => {
    if (!fs.existsSync(binary)) {
        throw new Error(`no actionable binary at ${binary}: build it (swift build --product actionable) or set ACTIONABLE_BINARY`);
    }
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "actionable-node-serve-"));
    fs.cpSync(path.join(repository, "Categories"), path.join(directory, "Categories"), { recursive: true });
    // The upstream: a Node HTTP server keeping each forwarded call's raw body and headers.
    receiver = http.createServer((request, response) => {
        const chunks = [];
        request.on("data", (chunk) => chunks.push(chunk));
        request.on("end", () => {
            received.push({ headers: request.headers, body: Buffer.concat(chunks) });
            response.writeHead(204).end();
            for (const waiter of waiters.splice(0)) waiter();
        });
    });
    await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    standIn = start(["fcm-stand-in", "--port", "0", "--project-id", "node-test"], directory, /FCM stand-in on https:\/\/127\.0\.0\.1:(\d+)/);
    const fcmPort = (await standIn.ready)[1];
    // The stand-in writes its files before it prints its URL.
    assert.ok(fs.existsSync(path.join(directory, ".actionable/fcm-stand-in/service-account.json")), standIn.output());
    port = await freePort();
    server = start([
        "serve", "--host", "127.0.0.1", "--port", String(port), "--storage", "memory:", "--token-key", `${tokenKey.id}=${tokenKey.secret}`,
        "--backend-token", backendToken, "--forward", `invite.*=http://127.0.0.1:${receiver.address().port}/hook`, "--forward-secret", secret,
        "--fcm-service-account", ".actionable/fcm-stand-in/service-account.json", "--fcm-url", `https://127.0.0.1:${fcmPort}`,
        "--fcm-ca-file", ".actionable/fcm-stand-in/certificate.pem",
    ], directory, /listening on/);
    await server.ready;
}, { timeout: 120_000 });

after(() => {
    server?.child.kill("SIGTERM");
    standIn?.child.kill("SIGTERM");
    receiver?.close();
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
});

async function nextForwarded(count) {
    while (received.length < count) await new Promise((resolve) => waiters.push(resolve));
    return received[count - 1];
}

test("tokens minted here are accepted by serve, and the calls it forwards verify", async () => {
    const categories = await (await fetch(`http://127.0.0.1:${port}/v1/categories`)).json();
    const inviteCategory = categories.categories.find((category) => category.category === "invite");
    assert.ok(inviteCategory, "GET /v1/categories has invite");
    // Non-ASCII text, escapes, control characters, and an integer beyond 2^53.
    const payload = { inviteId: "inv-ÿ-😀-\"q\"-\\-\t\n\u0001", eventName: "Zoë's \u2028 dinner", seats: 9007199254740993n };
    const token = mintActionToken({ key: tokenKey, user: "alice", notificationId: "n-node-1", category: inviteCategory, payload });
    const body = `{"category":"invite","action":"accept","notificationId":"n-node-1","actionToken":${JSON.stringify(token)},`
        + `"payload":{"inviteId":${JSON.stringify(payload.inviteId)},"eventName":${JSON.stringify(payload.eventName)},"seats":9007199254740993}}`;
    const answer = await fetch(`http://127.0.0.1:${port}/v1/actions`, { method: "POST", headers: { "content-type": "application/json" }, body });
    assert.equal(answer.status, 202, await answer.text());
    // An edited payload is refused: the digest binds it.
    const edited = body.replace("9007199254740993", "9007199254740992");
    const refused = await fetch(`http://127.0.0.1:${port}/v1/actions`, { method: "POST", headers: { "content-type": "application/json" }, body: edited });
    assert.notEqual(refused.status, 202);

    // An integer id beyond 2^53 held as a JS number: digested as the digits JSON sends, which the server reads exactly.
    const big = { inviteId: "inv-2", seats: 1234567890123456789 };
    const bigToken = mintActionToken({ key: tokenKey, user: "alice", notificationId: "n-node-2", category: inviteCategory, payload: big });
    const bigTap = jsonText({ category: "invite", action: "decline", notificationId: "n-node-2", actionToken: bigToken, payload: big });
    const bigAnswer = await fetch(`http://127.0.0.1:${port}/v1/actions`, { method: "POST", headers: { "content-type": "application/json" }, body: bigTap });
    assert.equal(bigAnswer.status, 202, await bigAnswer.text());

    await nextForwarded(2);
    const call = received.find((item) => item.body.toString("utf8").includes('"notificationId":"n-node-1"'));
    assert.ok(call, "the accept was forwarded");
    const second = received.find((item) => item.body.toString("utf8").includes('"notificationId":"n-node-2"'));
    assert.ok(second.body.toString("utf8").includes('"seats":1234567890123456800'), "the large id forwarded as the server read it");
    const forwarded = verifyWebhook(call.body, call.headers, secret);
    assert.equal(forwarded.category, "invite");
    assert.equal(forwarded.action, "accept");
    assert.equal(forwarded.user, "alice");
    assert.equal(forwarded.payload.inviteId, payload.inviteId);
    assert.equal(forwarded.payload.eventName, payload.eventName);
    assert.ok(call.body.toString("utf8").includes('"seats":9007199254740993'), "the integer forwarded exactly");
    // Headers as a fetch Headers, and either of two secrets during a rotation.
    assert.equal(verifyWebhook(call.body, new Headers(call.headers), [oldSecret, secret]).id, forwarded.id);
    // A tampered body, a wrong secret, an old timestamp: refused, each for its reason.
    const tampered = Buffer.from(call.body.toString("utf8").replace("accept", "declin"));
    assert.throws(() => verifyWebhook(tampered, call.headers, secret), (error) => error instanceof WebhookVerificationError && error.reason === "bad-signature");
    assert.throws(() => verifyWebhook(call.body, call.headers, oldSecret), (error) => error.reason === "bad-signature");
    const later = Number(call.headers["webhook-timestamp"]) + 301;
    assert.throws(() => verifyWebhook(call.body, call.headers, secret, { now: () => later }), (error) => error.reason === "too-old");
    assert.throws(() => verifyWebhook(call.body, { ...call.headers, "webhook-id": undefined }, secret), (error) => error.reason === "missing-header");
    // A signature made over the same bytes with the secret verifies; Standard Webhooks' own recipe.
    const key = Buffer.from(secret.slice(6), "base64");
    const mine = createHmac("sha256", key).update(`${call.headers["webhook-id"]}.${call.headers["webhook-timestamp"]}.`).update(call.body).digest("base64");
    assert.ok(call.headers["webhook-signature"].split(" ").includes(`v1,${mine}`));
});

test("the server's API: send, notification, devices, removeDevice, badge, and its problems", async () => {
    const client = new ActionableServer({ baseURL: `http://127.0.0.1:${port}/`, backendToken });
    const sent = await client.send({ user: "bob", category: "invite", notificationId: "n-node-send", alert: "Dinner?", payload: { inviteId: "inv-1" }, badge: "auto" });
    assert.deepEqual(sent, { notificationId: "n-node-send", devices: 0, created: true });
    assert.equal((await client.send({ user: "bob", category: "invite", notificationId: "n-node-send", payload: { inviteId: "inv-1" } })).created, false);
    const report = await client.notification("n-node-send");
    assert.equal(report.user, "bob");
    assert.deepEqual(report.devices, []);
    assert.deepEqual(await client.devices("bob"), []);
    assert.equal(await client.badge("bob"), 1);
    await assert.rejects(client.notification("n-unknown"), (error) => error instanceof ProblemError && error.status === 404 && error.problem.status === 404);
    await assert.rejects(client.removeDevice("ab".repeat(32)), (error) => error instanceof ProblemError && error.status === 404);
    await assert.rejects(
        client.send({ user: "bob", category: "invite", payload: { seats: 2 } }),
        (error) => error instanceof ProblemError && error.status === 422 && Array.isArray(error.problem.errors));
    const wrong = new ActionableServer({ baseURL: `http://127.0.0.1:${port}`, backendToken: "not-the-token-0123456789abcdefghij" });
    await assert.rejects(wrong.badge("bob"), (error) => error instanceof ProblemError && error.status === 401 && typeof error.problem.type === "string");
});

// ------------------------------------------------------------------------------------------
// A receiver's first mistakes, each a WebhookVerificationError that says what to do

test("verifyWebhook names a receiver's set-up mistakes: no secrets, a parsed body, a tolerance that is not a number", () => {
    const body = '{"id":"r1"}';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const key = Buffer.from(secret.slice(6), "base64");
    const signature = createHmac("sha256", key).update(`r1.${timestamp}.`).update(body).digest("base64");
    const headers = { "webhook-id": "r1", "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
    assert.equal(verifyWebhook(body, headers, secret).id, "r1");
    const refused = (call, reason, words) => assert.throws(call, (error) =>
        error instanceof WebhookVerificationError && error.reason === reason && words.every((word) => error.message.includes(word)));
    // process.env.WEBHOOK_SECRET unset: undefined, or [undefined] in a rotation list; an empty list.
    for (const secrets of [undefined, null, "", [], [undefined], [secret, ""]]) {
        refused(() => verifyWebhook(body, headers, secrets), "no-secrets", ["whsec_", "environment variable"]);
    }
    // express.json() ran first: the body is an object; no body parser matched: {} or undefined.
    for (const parsed of [JSON.parse(body), {}, undefined, 42]) {
        refused(() => verifyWebhook(parsed, headers, secret), "raw-body-required", ["express.raw", "raw bytes"]);
    }
    // Number(process.env.TOLERANCE) when it is unset, and other tolerances that would switch replay protection off.
    for (const toleranceSeconds of [NaN, Infinity, -1, "300"]) {
        refused(() => verifyWebhook(body, headers, secret, { toleranceSeconds }), "bad-option", ["toleranceSeconds", "finite"]);
    }
    refused(() => verifyWebhook(body, headers, secret, { now: () => NaN }), "bad-option", ["now()", "finite"]);
    // Header values of other types, and no options at all: refusals or answers, never a raw TypeError.
    refused(() => verifyWebhook(body, { ...headers, "webhook-signature": 42 }, secret), "bad-signature", ["secrets"]);
    refused(() => verifyWebhook(body, { ...headers, "webhook-timestamp": ["1", "2"] }, secret), "bad-timestamp", ["Unix seconds"]);
    assert.equal(verifyWebhook(body, headers, secret, null).id, "r1");
    refused(() => verifyWebhook(body, headers, "whsec_short"), "bad-secret", ["whsec_"]);
    refused(() => verifyWebhook(body, undefined, secret), "missing-header", ["headers"]);
    // A signature dated 1970 is refused with the default tolerance (NaN let it through).
    const old = createHmac("sha256", key).update("r1.1.").update(body).digest("base64");
    refused(() => verifyWebhook(body, { ...headers, "webhook-timestamp": "1", "webhook-signature": `v1,${old}` }, secret), "too-old", ["300"]);
});

// ------------------------------------------------------------------------------------------
// ActionableServer against answers no well-behaved server sends

/** A loopback server answering every request with `answer(request, response)`; resolves with its base URL. */
async function upstream(answer) {
    const server = http.createServer(answer);
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${server.address().port}`, close: () => { server.closeAllConnections(); server.close(); } };
}

test("retryAfter is the server's Retry-After, and undefined without one", async () => {
    const answers = [
        [502, {}, undefined],
        [503, { "retry-after": "7" }, 7],
        [429, { "retry-after": "" }, undefined],
        [503, { "retry-after": "soon" }, undefined],
        [503, { "retry-after": new Date(Date.now() + 120_000).toUTCString() }, "about 120"],
        // The obsolete HTTP date forms a recipient must still read (RFC 850, asctime): both in the past here.
        [503, { "retry-after": "Sunday, 06-Nov-94 08:49:37 GMT" }, 0],
        [503, { "retry-after": "Sun Nov  6 08:49:37 1994" }, 0],
    ];
    let index = 0;
    const fake = await upstream((request, response) => {
        const [status, headers] = answers[index];
        response.writeHead(status, { "content-type": "application/problem+json", ...headers });
        response.end(JSON.stringify({ type: "about:blank", title: "unavailable", status }));
    });
    try {
        const client = new ActionableServer({ baseURL: fake.url, backendToken: "t-0123456789" });
        for (; index < answers.length; index += 1) {
            const [status, , expected] = answers[index];
            await assert.rejects(client.badge("bob"), (error) => {
                assert.ok(error instanceof ProblemError);
                assert.equal(error.status, status);
                if (expected === "about 120") assert.ok(error.retryAfter >= 118 && error.retryAfter <= 120, String(error.retryAfter));
                else assert.equal(error.retryAfter, expected, `answer ${index}`);
                return true;
            });
        }
    } finally {
        fake.close();
    }
});

test("an endless answer is cut off at maxAnswerBytes, with or without a content-length", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const fake = await upstream((request, response) => {
        const declared = request.url.includes("declared");
        response.writeHead(200, { "content-type": "application/json", ...(declared ? { "content-length": String(1 << 30) } : {}) });
        const write = () => { while (response.write(chunk)); };
        response.on("drain", write);
        write();
    });
    try {
        // A timeout far beyond the test's: only the cap can end these calls.
        const client = new ActionableServer({ baseURL: fake.url, backendToken: "t-0123456789", timeoutMs: 600_000, maxAnswerBytes: 256 * 1024 });
        for (const user of ["endless", "declared"]) {
            await assert.rejects(client.badge(user), (error) => error instanceof ProblemError && /larger than 262144 bytes/.test(error.message));
        }
    } finally {
        fake.close();
    }
});

test("ActionableServer refuses options that cannot work, naming each", () => {
    const refused = (options, words) => assert.throws(() => new ActionableServer(options), (error) =>
        error instanceof TypeError && words.every((word) => error.message.includes(word)));
    refused({ baseURL: undefined, backendToken: "t" }, ["baseURL", "https://"]);
    refused({ baseURL: "actionable.example.com", backendToken: "t" }, ["baseURL"]);
    refused({ baseURL: "ftp://actionable.example.com", backendToken: "t" }, ["baseURL"]);
    refused({ baseURL: "https://actionable.example.com", backendToken: undefined }, ["backendToken", "--backend-token"]);
    refused({ baseURL: "https://actionable.example.com", backendToken: "" }, ["backendToken"]);
    refused({ baseURL: "https://actionable.example.com", backendToken: "t", timeoutMs: NaN }, ["timeoutMs"]);
    // Node cuts a timer past 2^31-1 ms to 1 ms: every call would abort at once.
    refused({ baseURL: "https://actionable.example.com", backendToken: "t", timeoutMs: 3e9 }, ["timeoutMs", "2147483647"]);
    // The API's paths would land inside a query or a fragment.
    refused({ baseURL: "https://actionable.example.com/?k=1", backendToken: "t" }, ["query"]);
    refused({ baseURL: "https://actionable.example.com/#x", backendToken: "t" }, ["fragment"]);
    refused({ baseURL: "https://user:pass@actionable.example.com/", backendToken: "t" }, ["credentials"]);
    refused({ baseURL: "https://actionable.example.com", backendToken: "t", maxAnswerBytes: 0 }, ["maxAnswerBytes"]);
    assert.ok(new ActionableServer({ baseURL: "https://actionable.example.com/", backendToken: "t" }));
});

test("a fetch whose body yields empty chunks without end is aborted at timeoutMs", async () => {
    // A custom fetch (a proxy's, a mock's) whose reader resolves at once with nothing: the timer must still run.
    const spinning = async () => ({
        status: 200, statusText: "OK", headers: { get: () => null }, text: async () => "",
        body: { getReader: () => ({ read: async () => ({ done: false, value: new Uint8Array(0) }), cancel: async () => undefined }) },
    });
    const client = new ActionableServer({ baseURL: "http://127.0.0.1:1", backendToken: "t-0123456789", fetch: spinning, timeoutMs: 50 });
    await assert.rejects(client.badge("bob"), (error) => error instanceof ProblemError && /longer than timeoutMs/.test(error.message));
});
