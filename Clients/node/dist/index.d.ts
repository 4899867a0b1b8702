/** A payload key's declared type (`type` in a category file). */
export declare type PayloadType = "string" | "integer" | "number" | "boolean" | "object" | "array";
/** A declared payload key: its type, or `{type, required, maxLength}` as `GET /v1/categories` writes it. */
export declare type PayloadField = PayloadType | {
    type: PayloadType;
    required?: boolean;
    maxLength?: number;
};
/**
 * A category as the server serves it in `GET /v1/categories` (`category` is its id), or as the generated
 * TypeScript exports it (`id`): what matters here is its id and its payload keys.
 */
export interface CategoryLike {
    category?: string;
    id?: string;
    payload: {
        readonly [key: string]: PayloadField;
    };
}
/** A payload value: JSON, with `bigint` for integers beyond 2^53 (which a JS number cannot hold exactly). */
export declare type PayloadValue = string | number | bigint | boolean | null | PayloadValue[] | {
    [key: string]: PayloadValue;
};
/** The call `actionable serve` forwards for a response (ForwardedResponse in openapi.yaml). */
export interface ForwardedResponse<Payload = {
    [key: string]: unknown;
}> {
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
export declare class WebhookVerificationError extends Error {
    readonly reason: "missing-header" | "bad-timestamp" | "too-old" | "too-new" | "bad-signature" | "bad-body" | "no-secrets" | "bad-secret" | "raw-body-required" | "bad-option";
    constructor(reason: WebhookVerificationError["reason"], message: string);
}
/** Headers as Node's `IncomingMessage.headers`, a fetch `Headers`, or a plain object. */
export declare type HeadersLike = {
    get(name: string): string | null;
} | {
    [name: string]: string | string[] | undefined;
};
export interface VerifyOptions {
    /** How far the `webhook-timestamp` may be from now, either way, in seconds (300). */
    toleranceSeconds?: number | undefined;
    /** The clock, in Unix seconds (for tests). */
    now?: (() => number) | undefined;
}
/**
 * Verifies a call the server forwarded (Standard Webhooks) and returns it, parsed: `rawBody` is the body exactly as
 * received (read it raw: a re-serialized body does not verify; and JSON.parse reads an integer beyond 2^53 in the
 * payload as the nearest double — parse `rawBody` yourself to keep such an id exact), `secrets` the endpoint's `whsec_…` secret, or several
 * during a rotation (every `v1,` signature is tried against every secret). Throws `WebhookVerificationError` for a
 * missing header, a timestamp more than `toleranceSeconds` (300) from now, or no matching signature.
 */
export declare function verifyWebhook<Payload = {
    [key: string]: unknown;
}>(rawBody: string | Uint8Array, headers: HeadersLike, secrets: string | readonly string[], options?: VerifyOptions | null): ForwardedResponse<Payload>;
/** JSON text of `value`, with a bigint written as its digits (JSON.stringify refuses bigints). */
export declare function jsonText(value: unknown): string;
/**
 * The category's declared keys of `payload`, typed by their declared types, as RFC 8785 canonical JSON: what the
 * action token's `pld` digests (keys the category does not declare are left out, as the server leaves them out).
 */
export declare function canonicalPayload(category: CategoryLike, payload: {
    readonly [key: string]: PayloadValue | undefined;
}): string;
/** The `pld` claim of a `category` notification with `payload`: unpadded base64url of SHA-256 over `canonicalPayload`. */
export declare function payloadDigest(category: CategoryLike, payload: {
    readonly [key: string]: PayloadValue | undefined;
}): string;
export interface MintOptions {
    /** The server's token key: `--token-key ID=SECRET` (the secret's UTF-8 bytes are the HMAC key). */
    key: {
        id: string;
        secret: string;
    };
    /** The user the notification goes to (`sub`). */
    user: string;
    /** The notification's id (`jti`): the app reports the tap with it. */
    notificationId: string;
    /** The category (its id and payload keys). */
    category: CategoryLike;
    /** The payload the notification carries (`pld` binds it). */
    payload: {
        readonly [key: string]: PayloadValue | undefined;
    };
    /** The actions the token allows (`act`); every action when left out. */
    actions?: readonly string[] | undefined;
    /** Seconds the token is valid (7 days). */
    expiresIn?: number | undefined;
    /** The clock, in Unix seconds (for tests). */
    now?: (() => number) | undefined;
}
/** An action token the server accepts for this notification (HS256, `kid` = the key's id), as `actionable send` mints it. */
export declare function mintActionToken(options: MintOptions): string;
/** `POST /v1/send`'s body (SendRequest). */
export interface SendRequest<Payload = {
    [key: string]: PayloadValue;
}> {
    user: string;
    category: string;
    notificationId?: string | undefined;
    alert?: string | {
        title?: string | undefined;
        subtitle?: string | undefined;
        body?: string | undefined;
    } | undefined;
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
    errors?: {
        pointer: string;
        detail: string;
    }[];
    [member: string]: unknown;
}
/** A non-2xx answer of the server: `status`, and the problem document it sent (or one made from the status). */
export declare class ProblemError extends Error {
    readonly status: number;
    readonly problem: Problem;
    /**
     * The seconds the server asked to wait (`Retry-After` of a 429 or 503, in seconds or as an HTTP date), when it
     * did; `undefined` when the answer has no `Retry-After` (then choose your own backoff: never retry at once).
     */
    readonly retryAfter: number | undefined;
    constructor(status: number, problem: Problem, retryAfter?: number);
}
/** The part of fetch the client uses (the global fetch of Node 18+, or any compatible one). */
export declare type FetchLike = (url: string, init: {
    method: string;
    headers: {
        [name: string]: string;
    };
    redirect: "manual";
    body?: string | undefined;
    signal?: AbortSignal | undefined;
}) => Promise<{
    status: number;
    statusText: string;
    headers: {
        get(name: string): string | null;
    };
    text(): Promise<string>;
    /** The body as a stream (fetch's `Response.body`): read up to `maxAnswerBytes` and no further. */
    body?: {
        getReader(): {
            read(): Promise<{
                done: boolean;
                value?: Uint8Array;
            }>;
            cancel(reason?: unknown): Promise<void>;
        };
    } | null;
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
/** The server's API for a backend: send, where a notification stands, a user's devices, the badge. */
export declare class ActionableServer {
    private readonly base;
    private readonly token;
    private readonly fetcher;
    private readonly timeout;
    private readonly limit;
    /** Throws a `TypeError` naming the option for one that cannot work (an unset environment variable, most often). */
    constructor(options: ServerOptions);
    /**
     * Sends a notification to every active device of its user (202; 200 when its id was sent before). Without a
     * `notificationId` one is made here, so that a retry of this call sends nothing twice.
     */
    send<Payload = {
        [key: string]: PayloadValue;
    }>(request: SendRequest<Payload>): Promise<SendAccepted>;
    /** Where each device's copy of notification `id` stands. */
    notification(id: string): Promise<NotificationReport>;
    /** The devices of `user`, oldest registration first. */
    devices(user: string): Promise<DeviceItem[]>;
    /** Removes a device by its token: nothing is sent to it any more. */
    removeDevice(token: string): Promise<void>;
    /** The number on `user`'s app icon: their unread notifications. */
    badge(user: string): Promise<number>;
    private call;
}
