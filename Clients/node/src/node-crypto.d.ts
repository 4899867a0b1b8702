// The few declarations of Node's `node:crypto` this package uses (no @types/node: the package has
// no dependencies, and builds with tsc alone). Signatures as in Node's documentation.
declare module "node:crypto" {
    interface Hmac {
        update(data: string | Uint8Array): Hmac;
        digest(): Uint8Array;
        digest(encoding: "base64" | "base64url" | "hex"): string;
    }
    interface Hash {
        update(data: string | Uint8Array): Hash;
        digest(): Uint8Array;
        digest(encoding: "base64" | "base64url" | "hex"): string;
    }
    export function createHmac(algorithm: string, key: string | Uint8Array): Hmac;
    export function createHash(algorithm: string): Hash;
    export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
    export function randomUUID(): string;
}
