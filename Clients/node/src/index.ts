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

/** Why a forwarded call was refused: its `reason` names what was wrong. */
export class WebhookVerificationError extends Error {
    readonly reason: "missing-header" | "bad-timestamp" | "too-old" | "too-new" | "bad-signature" | "bad-secret" | "bad-body";

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
    toleranceSeconds?: number;
    /** The clock, in Unix seconds (for tests). */
    now?: () => number;
}

function header(headers: HeadersLike, name: string): string | undefined {
    if (typeof (headers as { get?: unknown }).get === "function") {
        return (headers as { get(name: string): string | null }).get(name) ?? undefined;
    }
    const record = headers as { [name: string]: string | string[] | undefined };
    for (const key of Object.keys(record)) {
        if (key.toLowerCase() === name) {
            const value = record[key];
            return Array.isArray(value) ? value.join(" ") : value;
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
    rawBody: string | Uint8Array, headers: HeadersLike, secrets: string | readonly string[], options: VerifyOptions = {},
): ForwardedResponse<Payload> {
    const id = header(headers, "webhook-id");
    const timestamp = header(headers, "webhook-timestamp");
    const signatures = header(headers, "webhook-signature");
    if (!id || !timestamp || !signatures) {
        throw new WebhookVerificationError("missing-header", "webhook-id, webhook-timestamp and webhook-signature are required");
    }
    if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError("bad-timestamp", `webhook-timestamp ${JSON.stringify(timestamp)} is not Unix seconds`);
    const now = options.now ? options.now() : Date.now() / 1000;
    const tolerance = options.toleranceSeconds ?? 300;
    const sent = Number(timestamp);
    if (sent < now - tolerance) throw new WebhookVerificationError("too-old", `webhook-timestamp ${timestamp} is older than ${tolerance} s`);
    if (sent > now + tolerance) throw new WebhookVerificationError("too-new", `webhook-timestamp ${timestamp} is more than ${tolerance} s ahead`);
    const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
    const prefix = encoder.encode(`${id}.${timestamp}.`);
    const candidates = signatures.split(" ").filter((part) => part.startsWith("v1,")).map((part) => base64Bytes(part.slice(3)));
    let matched = false;
    for (const secret of typeof secrets === "string" ? [secrets] : secrets) {
        const key = base64Bytes(secret.startsWith("whsec_") ? secret.slice(6) : secret);
        if (!key || key.length < 16) throw new WebhookVerificationError("bad-secret", "a secret is whsec_ followed by base64 of at least 16 bytes");
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
        if (value === undefined) continue;
        members.push(canonical(key) + ":" + typed(value, fieldType(category.payload[key])));
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
    actions?: readonly string[];
    /** Seconds the token is valid (7 days). */
    expiresIn?: number;
    /** The clock, in Unix seconds (for tests). */
    now?: () => number;
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
    if (options.actions) claims.act = [...options.actions];
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
    notificationId?: string;
    alert?: string | { title?: string; subtitle?: string; body?: string };
    payload?: Payload;
    badge?: "auto" | number | null;
    sound?: string;
    threadId?: string;
    /** `mutable-content: 1` (with an alert): the app's notification service extension runs first. */
    mutableContent?: boolean;
    collapseId?: string;
    expiration?: number;
    priority?: 10 | 5 | 1;
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
    /** The seconds the server asked to wait (`Retry-After` of a 429 or 503), when it did. */
    readonly retryAfter?: number;

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
    init: { method: string; headers: { [name: string]: string }; redirect: "manual"; body?: string; signal?: AbortSignal },
) => Promise<{ status: number; statusText: string; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface ServerOptions {
    /** The server's base URL, as https://actionable.example.com. */
    baseURL: string;
    /** The backend's token (`--backend-token`). */
    backendToken: string;
    /** The fetch to use (the global one by default). */
    fetch?: FetchLike;
    /** How long one call may take, in milliseconds (30,000). */
    timeoutMs?: number;
}

/** The server's API for a backend: send, where a notification stands, a user's devices, the badge. */
export class ActionableServer {
    private readonly base: string;
    private readonly token: string;
    private readonly fetcher: FetchLike;
    private readonly timeout: number;

    constructor(options: ServerOptions) {
        this.base = options.baseURL.replace(/\/+$/, "");
        this.token = options.backendToken;
        // Called unbound (some runtimes refuse a fetch called on another object).
        const chosen = options.fetch ?? (globalThis.fetch as unknown as FetchLike);
        this.fetcher = (url, init) => chosen(url, init);
        this.timeout = options.timeoutMs ?? 30_000;
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
            text = await response.text();
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
        const retryAfter = Number(response.headers.get("retry-after") ?? "");
        throw new ProblemError(response.status, problem, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined);
    }
}

/** A path segment: percent-encoded, and `.` and `..` too (a URL would otherwise resolve them away). */
function segment(text: string): string {
    return encodeURIComponent(text).replace(/\./g, "%2E");
}
