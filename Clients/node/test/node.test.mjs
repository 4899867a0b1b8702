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
    standIn = start(["fcm-stand-in", "--port", "0", "--project-id", "node-test"], directory, /https:\/\/127\.0\.0\.1:(\d+)/);
    const fcmPort = (await standIn.ready)[1];
    while (!fs.existsSync(path.join(directory, ".actionable/fcm-stand-in/service-account.json"))) await new Promise((resolve) => setImmediate(resolve));
    port = await freePort();
    server = start([
        "serve", "--host", "127.0.0.1", "--port", String(port), "--storage", "memory:", "--token-key", `${tokenKey.id}=${tokenKey.secret}`,
        "--backend-token", backendToken, "--forward", `invite.*=http://127.0.0.1:${receiver.address().port}/hook`, "--forward-secret", secret,
        "--fcm-service-account", ".actionable/fcm-stand-in/service-account.json", "--fcm-url", `https://127.0.0.1:${fcmPort}`,
        "--fcm-ca-file", ".actionable/fcm-stand-in/certificate.pem",
    ], directory, /listening on/);
    await server.ready;
});

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
