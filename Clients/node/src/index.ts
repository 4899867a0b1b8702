// @actionable/node — for Node backends of actionable notifications. No runtime dependencies:
// node:crypto and the global fetch (Node 18+).
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";

// ---------------------------------------------------------------------------------------------
// The catalog's shapes (GET /v1/categories, or the generated TypeScript's category objects)

/** A payload key's declared type (`type` in a category file). */
export type PayloadType = "string" | "integer" | "number" | "boolean" | "object" | "array";

/** A declared payload key: its type, or `{type, required, maxLength}` as `GET /v1/categories` writes it. */
export type PayloadField = PayloadType | { type: PayloadType; required?: boolean; maxLength?: number };

/**
 * A category as the server serves it in `GET /v1/categories` (`category` is its id), or as the generated
 * TypeScript exports it (`id`): what matters here is its id and its payload keys.
 */
export interface CategoryLike {
    category?: string;
    id?: string;
    payload: { readonly [key: string]: PayloadField };
}

/** A payload value: JSON, with `bigint` for integers beyond 2^53 (which a JS number cannot hold exactly). */
export type PayloadValue = string | number | bigint | boolean | null | PayloadValue[] | { [key: string]: PayloadValue };

// ---------------------------------------------------------------------------------------------
// Webhooks: the calls the server forwards

/** The call `actionable serve` forwards for a response (ForwardedResponse in openapi.yaml). */
export interface ForwardedResponse<Payload = { [key: string]: unknown }> {
    /** The response id: the same as the `webhook-id` and `Idempotency-Key` headers. */
    id: string;
    category: string;
    action: string;
    notificationId: string;
    user: string;
    /** The text typed into a text-input action; null otherwise. */
    userText: string | null;
    payload: Payload;
    /** When the server received the response, in Unix seconds with a fraction. */
    receivedAt: number;
}

/**
 * Why a forwarded call was refused: its `reason` names what was wrong, its message what to do.
 *
 * The call itself: `missing-header`, `bad-timestamp`, `too-old`, `too-new`, `bad-signature` (answer 401: the server
 * retries, and a call that never verifies goes dead where an operator sees it), `bad-body`.
 * The receiver's set-up, which no retry mends: `no-secrets` (no secret given: an unset environment variable?),
 * `bad-secret` (not `whsec_` and base64 of 16 bytes or more), `raw-body-required` (the body was parsed before it was
 * verified: `express.json()`?), `bad-option` (a `toleranceSeconds` that is not a finite number of seconds).
 */
export class WebhookVerificationError extends Error {
    readonly reason:
        | "missing-header" | "bad-timestamp" | "too-old" | "too-new" | "bad-signature" | "bad-body"
        | "no-secrets" | "bad-secret" | "raw-body-required" | "bad-option";

    constructor(reason: WebhookVerificationError["reason"], message: string) {
        super(message);
        this.name = "WebhookVerificationError";
        this.reason = reason;
    }
}

/** Headers as Node's `IncomingMessage.headers`, a fetch `Headers`, or a plain object. */
export type HeadersLike = { get(name: string): string | null } | { [name: string]: string | string[] | undefined };

export interface VerifyOptions {
    /** How far the `webhook-timestamp` may be from now, either way, in seconds (300). */
    toleranceSeconds?: number | undefined;
    /** The clock, in Unix seconds (for tests). */
    now?: (() => number) | undefined;
}

function header(headers: HeadersLike, name: string): string | undefined {
    if (typeof (headers as { get?: unknown }).get === "function") {
        return (headers as { get(name: string): string | null }).get(name) ?? undefined;
    }
    const record = headers as { [name: string]: unknown };
    for (const key of Object.keys(record)) {
        if (key.toLowerCase() === name) {
            const value = record[key];
            if (Array.isArray(value)) return value.map(String).join(" ");
            return typeof value === "string" ? value : value === undefined || value === null ? undefined : String(value);
        }
    }
    return undefined;
}

function base64Bytes(text: string): Uint8Array | undefined {
    try {
        const binary = atob(text);
        const bytes = new Uint8Array(binary.length);
        for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
        return bytes;
    } catch {
        return undefined;
    }
}

const encoder = new TextEncoder();

/**
 * Verifies a call the server forwarded (Standard Webhooks) and returns it, parsed: `rawBody` is the body exactly as
 * received (read it raw: a re-serialized body does not verify; and JSON.parse reads an integer beyond 2^53 in the
 * payload as the nearest double — parse `rawBody` yourself to keep such an id exact), `secrets` the endpoint's `whsec_…` secret, or several
 * during a rotation (every `v1,` signature is tried against every secret). Throws `WebhookVerificationError` for a
 * missing header, a timestamp more than `toleranceSeconds` (300) from now, or no matching signature.
 */
export function verifyWebhook<Payload = { [key: string]: unknown }>(
    rawBody: string | Uint8Array, headers: HeadersLike, secrets: string | readonly string[], options: VerifyOptions | null = {},
): ForwardedResponse<Payload> {
    options = options ?? {};
    // What a receiver's set-up gets wrong first, each said as what to do (the values come from JavaScript: the types
    // do not hold them to their declarations).
    const given = (typeof secrets === "string" ? [secrets] : Array.isArray(secrets) ? secrets : []) as unknown[];
    if (given.length === 0 || given.some((secret) => typeof secret !== "string" || secret.length === 0)) {
        throw new WebhookVerificationError("no-secrets",
            "no webhook secret to verify with (an unset environment variable?): pass the endpoint's whsec_… secret, or the old and new ones during a rotation");
    }
    if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
        throw new WebhookVerificationError("raw-body-required",
            "the body was parsed before it was verified: pass the raw bytes received (with Express, express.raw({ type: \"application/json\" }) on this route, not express.json())");
    }
    const tolerance = options.toleranceSeconds ?? 300;
    if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0) {
        throw new WebhookVerificationError("bad-option",
            `toleranceSeconds must be a finite number of seconds, 0 or more, not ${String(tolerance)} (Number() of an unset environment variable is NaN): leave it out for 300`);
    }
    if (headers === null || typeof headers !== "object") {
        throw new WebhookVerificationError("missing-header", "no headers given: pass the request's headers");
    }
    const id = header(headers, "webhook-id");
    const timestamp = header(headers, "webhook-timestamp");
    const signatures = header(headers, "webhook-signature");
    if (!id || !timestamp || !signatures) {
        throw new WebhookVerificationError("missing-header", "webhook-id, webhook-timestamp and webhook-signature are required");
    }
    if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError("bad-timestamp", `webhook-timestamp ${JSON.stringify(timestamp)} is not Unix seconds`);
    const now = options.now ? options.now() : Date.now() / 1000;
    if (typeof now !== "number" || !Number.isFinite(now)) {
        throw new WebhookVerificationError("bad-option", `now() must return a finite number of Unix seconds, not ${String(now)}`);
    }
    const sent = Number(timestamp);
    if (sent < now - tolerance) throw new WebhookVerificationError("too-old", `webhook-timestamp ${timestamp} is older than ${tolerance} s`);
    if (sent > now + tolerance) throw new WebhookVerificationError("too-new", `webhook-timestamp ${timestamp} is more than ${tolerance} s ahead`);
    const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
    const prefix = encoder.encode(`${id}.${timestamp}.`);
    const candidates = signatures.split(" ").filter((part) => part.startsWith("v1,")).map((part) => base64Bytes(part.slice(3)));
    let matched = false;
    for (const secret of given as string[]) {
        const key = base64Bytes(secret.startsWith("whsec_") ? secret.slice(6) : secret);
        if (!key || key.length < 16) {
            throw new WebhookVerificationError("bad-secret", "a webhook secret is whsec_ followed by base64 of at least 16 bytes: copy it as the server shows it");
        }
        const expected = createHmac("sha256", key).update(prefix).update(body).digest();
        for (const candidate of candidates) {
            if (candidate && candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
        }
    }
    if (!matched) throw new WebhookVerificationError("bad-signature", "no webhook-signature matches the body with these secrets");
    try {
        return JSON.parse(new TextDecoder().decode(body)) as ForwardedResponse<Payload>;
    } catch {
        throw new WebhookVerificationError("bad-body", "the body is not JSON");
    }
}

// ---------------------------------------------------------------------------------------------
// Action tokens: the payload's digest and the token

function fieldType(field: PayloadField): PayloadType {
    return typeof field === "string" ? field : field.type;
}

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;
const int64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/**
 * RFC 8785 canonical JSON of a JSON value, as the server writes it: keys by UTF-16 code units, numbers as ECMAScript
 * prints them, JSON's escapes; what JSON.stringify would send is what is digested (`toJSON`, `undefined` in an array as
 * null, left out of an object). A string with a lone surrogate is refused: the server cannot hold one.
 */
function canonical(value: unknown): string {
    if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
        return canonical((value as { toJSON(): unknown }).toJSON());
    }
    if (value === null || value === undefined || typeof value === "function" || typeof value === "symbol") return "null";
    if (typeof value === "bigint") return JSON.stringify(Number(value));
    if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
    if (typeof value === "boolean") return JSON.stringify(value);
    if (typeof value === "string") {
        if (loneSurrogate.test(value)) throw new TypeError("a payload string holds a lone surrogate, which JSON text cannot carry to the server");
        return JSON.stringify(value);
    }
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    const object = value as { [key: string]: unknown };
    const keys = Object.keys(object).filter((key) => {
        const member = object[key];
        return member !== undefined && typeof member !== "function" && typeof member !== "symbol";
    }).sort();
    return "{" + keys.map((key) => canonical(key) + ":" + canonical(object[key])).join(",") + "}";
}

/**
 * A top-level value as its declared type writes it. An `integer` as the server reads what is sent: a number as the
 * digits JSON.stringify sends (the server reads them exactly), a bigint within 64 bits as its exact digits.
 */
function typed(value: PayloadValue, type: PayloadType): string {
    if (type === "integer" && typeof value === "bigint" && value >= int64.min && value <= int64.max) return value.toString();
    return canonical(value);
}

/** JSON text of `value`, with a bigint written as its digits (JSON.stringify refuses bigints). */
export function jsonText(value: unknown): string {
    const marker = "\u0000bigint:";
    const text = JSON.stringify(value, (_key, member: unknown) => (typeof member === "bigint" ? marker + member.toString() : member));
    return text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1");
}

/**
 * The category's declared keys of `payload`, typed by their declared types, as RFC 8785 canonical JSON: what the
 * action token's `pld` digests (keys the category does not declare are left out, as the server leaves them out).
 */
export function canonicalPayload(category: CategoryLike, payload: { readonly [key: string]: PayloadValue | undefined }): string {
    const members: string[] = [];
    for (const key of Object.keys(category.payload).sort()) {
        // Only the payload's own keys: a declared `constructor` or `toString` is not the prototype's.
        if (!Object.prototype.hasOwnProperty.call(payload, key)) continue;
        const value = payload[key];
        const field = category.payload[key];
        if (value === undefined || field === undefined) continue;
        members.push(canonical(key) + ":" + typed(value, fieldType(field)));
    }
    return "{" + members.join(",") + "}";
}

/** The `pld` claim of a `category` notification with `payload`: unpadded base64url of SHA-256 over `canonicalPayload`. */
export function payloadDigest(category: CategoryLike, payload: { readonly [key: string]: PayloadValue | undefined }): string {
    return createHash("sha256").update(encoder.encode(canonicalPayload(category, payload))).digest("base64url");
}

export interface MintOptions {
    /** The server's token key: `--token-key ID=SECRET` (the secret's UTF-8 bytes are the HMAC key). */
    key: { id: string; secret: string };
    /** The user the notification goes to (`sub`). */
    user: string;
    /** The notification's id (`jti`): the app reports the tap with it. */
    notificationId: string;
    /** The category (its id and payload keys). */
    category: CategoryLike;
    /** The payload the notification carries (`pld` binds it). */
    payload: { readonly [key: string]: PayloadValue | undefined };
    /** The actions the token allows (`act`); every action when left out. */
    actions?: readonly string[] | undefined;
    /** Seconds the token is valid (7 days). */
    expiresIn?: number | undefined;
    /** The clock, in Unix seconds (for tests). */
    now?: (() => number) | undefined;
}

function base64url(text: string): string {
    return Buffer64.fromText(text);
}

const Buffer64 = {
    fromText(text: string): string {
        const bytes = encoder.encode(text);
        let binary = "";
        for (const byte of bytes) binary += String.fromCharCode(byte);
        return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    },
};

/** An action token the server accepts for this notification (HS256, `kid` = the key's id), as `actionable send` mints it. */
export function mintActionToken(options: MintOptions): string {
    const id = options.category.category ?? options.category.id;
    if (!id) throw new TypeError("the category has no id (category or id)");
    if (encoder.encode(options.key.secret).length < 32) throw new TypeError("an HS256 key's secret is at least 32 bytes");
    const now = Math.floor(options.now ? options.now() : Date.now() / 1000);
    const claims: { [key: string]: unknown } = {
        jti: options.notificationId,
        sub: options.user,
        cat: id,
        pld: payloadDigest(options.category, options.payload),
        iat: now,
        exp: now + (options.expiresIn ?? 7 * 24 * 3600),
    };
    if (options.actions) claims["act"] = [...options.actions];
    const signingInput = base64url(JSON.stringify({ alg: "HS256", kid: options.key.id, typ: "JWT" })) + "." + base64url(JSON.stringify(claims));
    const signature = createHmac("sha256", encoder.encode(options.key.secret)).update(signingInput).digest("base64url");
    return signingInput + "." + signature;
}

// ---------------------------------------------------------------------------------------------
// The server's API (openapi.yaml), with the backend's token

/** `POST /v1/send`'s body (SendRequest). */
export interface SendRequest<Payload = { [key: string]: PayloadValue }> {
    user: string;
    category: string;
    notificationId?: string | undefined;
    alert?: string | { title?: string | undefined; subtitle?: string | undefined; body?: string | undefined } | undefined;
    payload?: Payload | undefined;
    badge?: "auto" | number | null | undefined;
    sound?: string | undefined;
    threadId?: string | undefined;
    /** `mutable-content: 1` (with an alert): the app's notification service extension runs first. */
    mutableContent?: boolean | undefined;
    collapseId?: string | undefined;
    expiration?: number | undefined;
    priority?: 10 | 5 | 1 | undefined;
}

/** `POST /v1/send`'s answer (SendAccepted): `created` is false when the id was sent before (200: nothing sent twice). */
export interface SendAccepted {
    notificationId: string;
    devices: number;
    created: boolean;
}

/** One device's copy of a sent notification (NotificationDevice). */
export interface NotificationDevice {
    token: string;
    platform: "ios" | "android";
    state: "pending" | "sent" | "failed" | "unregistered";
    status: number | null;
    reason: string | null;
    attempts: number;
}

/** `GET /v1/notifications/{id}` (NotificationReport). */
export interface NotificationReport {
    notificationId: string;
    user: string;
    category: string;
    sentAt: number;
    devices: NotificationDevice[];
}

/** One device of a user (DeviceItem). */
export interface DeviceItem {
    token: string;
    platform: "ios" | "android";
    environment?: "production" | "sandbox";
    state: "active" | "unregistered";
    registeredAt: number;
    lastSentAt: number | null;
}

/** An RFC 9457 problem document, as the server answers every error. */
export interface Problem {
    type: string;
    title: string;
    status: number;
    detail?: string;
    errors?: { pointer: string; detail: string }[];
    [member: string]: unknown;
}

/** A non-2xx answer of the server: `status`, and the problem document it sent (or one made from the status). */
export class ProblemError extends Error {
    readonly status: number;
    readonly problem: Problem;
    /**
     * The seconds the server asked to wait (`Retry-After` of a 429 or 503, in seconds or as an HTTP date), when it
     * did; `undefined` when the answer has no `Retry-After` (then choose your own backoff: never retry at once).
     */
    readonly retryAfter: number | undefined;

    constructor(status: number, problem: Problem, retryAfter?: number) {
        super(`${status} ${problem.title}${problem.detail ? ": " + problem.detail : ""}`);
        this.name = "ProblemError";
        this.status = status;
        this.problem = problem;
        this.retryAfter = retryAfter;
    }
}

/** The part of fetch the client uses (the global fetch of Node 18+, or any compatible one). */
export type FetchLike = (
    url: string,
    init: { method: string; headers: { [name: string]: string }; redirect: "manual"; body?: string | undefined; signal?: AbortSignal | undefined },
) => Promise<{
    status: number;
    statusText: string;
    headers: { get(name: string): string | null };
    text(): Promise<string>;
    /** The body as a stream (fetch's `Response.body`): read up to `maxAnswerBytes` and no further. */
    body?: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> } } | null;
}>;

export interface ServerOptions {
    /** The server's base URL, as https://actionable.example.com. */
    baseURL: string;
    /** The backend's token (`--backend-token`). */
    backendToken: string;
    /** The fetch to use (the global one by default). */
    fetch?: FetchLike | undefined;
    /** How long one call may take, its answer's body included, in milliseconds (30,000). */
    timeoutMs?: number | undefined;
    /** The most bytes of an answer read (1 MiB): a larger one is cut off and the call fails. */
    maxAnswerBytes?: number | undefined;
}

/** An option of `ActionableServer` that cannot work: the message names it and what to pass. */
function optionError(message: string): TypeError {
    return new TypeError(`ActionableServer: ${message}`);
}

/** `Retry-After` as seconds: delay-seconds, or an HTTP date from now; `undefined` when absent or neither. */
function retryAfterSeconds(value: string | null, now: number): number | undefined {
    if (value === null) return undefined;
    const text = value.trim();
    if (/^\d{1,10}$/.test(text)) return Number(text);
    // An HTTP date: IMF-fixdate, or the obsolete RFC 850 and asctime forms a recipient must accept.
    if (!/^[A-Za-z]/.test(text)) return undefined;
    const date = Date.parse(/GMT$|UTC$/.test(text) ? text : text + " GMT");
    return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : undefined;
}

/** The answer's body as text, at most `limit` bytes of it read: a longer one is cancelled and refused. */
async function cappedText(
    response: Awaited<ReturnType<FetchLike>>, limit: number, stop: () => void, aborted: () => boolean,
): Promise<string> {
    const tooLarge = () => {
        stop();
        return new ProblemError(response.status, { type: "about:blank", title: `the answer is larger than ${limit} bytes`, status: response.status });
    };
    const length = response.headers.get("content-length");
    if (length !== null && /^\d+$/.test(length.trim()) && Number(length) > limit) throw tooLarge();
    if (!response.body || typeof response.body.getReader !== "function") {
        // A fetch without a body stream: its text is read whole, then checked.
        const text = await response.text();
        if (encoder.encode(text).length > limit) throw tooLarge();
        return text;
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
        if (aborted()) {
            await reader.cancel().catch(() => undefined);
            throw new ProblemError(response.status, { type: "about:blank", title: "the answer took longer than timeoutMs", status: response.status });
        }
        const { done, value } = await reader.read();
        if (done) break;
        if (!value || value.byteLength === 0) {
            // An empty chunk resolved at once would never let the timer run: wait a turn of the event loop.
            await new Promise((resolve) => setTimeout(resolve, 0));
            continue;
        }
        total += value.byteLength;
        if (total > limit) {
            await reader.cancel().catch(() => undefined);
            throw tooLarge();
        }
        chunks.push(value);
    }
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
    }
    return new TextDecoder().decode(bytes);
}

/** The server's API for a backend: send, where a notification stands, a user's devices, the badge. */
export class ActionableServer {
    private readonly base: string;
    private readonly token: string;
    private readonly fetcher: FetchLike;
    private readonly timeout: number;
    private readonly limit: number;

    /** Throws a `TypeError` naming the option for one that cannot work (an unset environment variable, most often). */
    constructor(options: ServerOptions) {
        if (options === null || typeof options !== "object") throw optionError("pass { baseURL, backendToken }");
        const base = typeof options.baseURL === "string" ? options.baseURL : "";
        let url: URL | undefined;
        try {
            url = new URL(base);
        } catch {
            url = undefined;
        }
        if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
            throw optionError(`baseURL must be the server's http:// or https:// URL, e.g. https://actionable.example.com, not ${JSON.stringify(options.baseURL)}`);
        }
        if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "" || base.includes("?") || base.includes("#")) {
            throw optionError("baseURL must have no query, fragment or credentials: the paths of the API are added to it (the token goes in backendToken)");
        }
        if (typeof options.backendToken !== "string" || options.backendToken.length === 0) {
            throw optionError("backendToken is empty: pass the token serve was started with (--backend-token; is its environment variable set?)");
        }
        const timeout = options.timeoutMs ?? 30_000;
        if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0 || timeout > 2_147_483_647) {
            throw optionError(`timeoutMs must be a number of milliseconds above 0 and at most 2147483647 (Node's timer limit), not ${String(timeout)}: leave it out for 30000`);
        }
        const limit = options.maxAnswerBytes ?? 1 << 20;
        if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit <= 0) {
            throw optionError(`maxAnswerBytes must be a whole number of bytes above 0, not ${String(limit)}: leave it out for 1 MiB`);
        }
        const chosen = options.fetch ?? (globalThis.fetch as unknown as FetchLike | undefined);
        if (typeof chosen !== "function") throw optionError("there is no global fetch (Node 18 or later has one): pass options.fetch");
        this.base = url.href.replace(/\/+$/, "");
        this.token = options.backendToken;
        // Called unbound (some runtimes refuse a fetch called on another object).
        this.fetcher = (url, init) => chosen(url, init);
        this.timeout = timeout;
        this.limit = limit;
    }

    /**
     * Sends a notification to every active device of its user (202; 200 when its id was sent before). Without a
     * `notificationId` one is made here, so that a retry of this call sends nothing twice.
     */
    async send<Payload = { [key: string]: PayloadValue }>(request: SendRequest<Payload>): Promise<SendAccepted> {
        const { status, body } = await this.call("POST", "/v1/send", { ...request, notificationId: request.notificationId ?? randomUUID() });
        const answer = body as { notificationId: string; devices: number };
        return { notificationId: answer.notificationId, devices: answer.devices, created: status === 202 };
    }

    /** Where each device's copy of notification `id` stands. */
    async notification(id: string): Promise<NotificationReport> {
        return (await this.call("GET", `/v1/notifications/${segment(id)}`)).body as NotificationReport;
    }

    /** The devices of `user`, oldest registration first. */
    async devices(user: string): Promise<DeviceItem[]> {
        return ((await this.call("GET", `/v1/devices/${segment(user)}`)).body as { items: DeviceItem[] }).items;
    }

    /** Removes a device by its token: nothing is sent to it any more. */
    async removeDevice(token: string): Promise<void> {
        await this.call("DELETE", `/v1/devices/${segment(token)}`);
    }

    /** The number on `user`'s app icon: their unread notifications. */
    async badge(user: string): Promise<number> {
        return ((await this.call("GET", `/v1/badge/${segment(user)}`)).body as { badge: number }).badge;
    }

    private async call(method: string, path: string, json?: unknown): Promise<{ status: number; body: unknown }> {
        const headers: { [name: string]: string } = { authorization: `Bearer ${this.token}`, accept: "application/json" };
        if (json !== undefined) headers["content-type"] = "application/json";
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), this.timeout);
        let response: Awaited<ReturnType<FetchLike>>;
        let text: string;
        try {
            response = await this.fetcher(this.base + path, {
                method, headers, redirect: "manual", body: json === undefined ? undefined : jsonText(json), signal: controller.signal,
            });
            text = await cappedText(response, this.limit, () => controller.abort(), () => controller.signal.aborted);
        } finally {
            clearTimeout(timer);
        }
        if (response.status >= 200 && response.status < 300) {
            if (text.length === 0) return { status: response.status, body: undefined };
            try {
                return { status: response.status, body: JSON.parse(text) };
            } catch {
                throw new ProblemError(response.status, { type: "about:blank", title: "the answer is not JSON", status: response.status });
            }
        }
        let problem: Problem = { type: "about:blank", title: response.statusText || `HTTP ${response.status}`, status: response.status };
        if ((response.headers.get("content-type") ?? "").startsWith("application/problem+json")) {
            try {
                problem = JSON.parse(text) as Problem;
            } catch {
                // the status stands
            }
        }
        throw new ProblemError(response.status, problem, retryAfterSeconds(response.headers.get("retry-after"), Date.now()));
    }
}

/** A path segment: percent-encoded, and `.` and `..` too (a URL would otherwise resolve them away). */
function segment(text: string): string {
    return encodeURIComponent(text).replace(/\./g, "%2E");
}
