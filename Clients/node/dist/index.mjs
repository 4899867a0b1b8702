// The ESM entry of @actionable/node: the same module as the CommonJS one (one implementation, so
// an error class is the same class whichever way it was imported).
export { verifyWebhook, WebhookVerificationError, canonicalPayload, payloadDigest, mintActionToken, ActionableServer, ProblemError, jsonText, } from "./index.js";
