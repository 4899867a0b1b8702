import ActionableCore
import ActionableTokens
import Foundation
import FuzzSupport

// An action token and an app JWT from arbitrary text, verified against two keys: anything but a
// token these keys signed must be refused with an ActionTokenError, never a crash.
let keys = [
    try! ActionTokenKey(parsing: "k1=fuzz-key-number-one-0123456789abcdef"),
    try! ActionTokenKey(parsing: "k2=fuzz-key-number-two-0123456789abcdef"),
]
nonisolated(unsafe) var tokens: ActionTokens?
nonisolated(unsafe) var appTokens: AppTokens?

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    if tokens == nil {
        blocking {
            tokens = try? await ActionTokens(keys: keys)
            appTokens = await AppTokens(keys: keys)
        }
    }
    guard let tokens, let appTokens else { return 0 }
    let text = String(decoding: bytes(data, count), as: UTF8.self)
    blocking {
        if let token = try? await tokens.verify(text, now: Date(timeIntervalSince1970: 1_800_000_000)) {
            try? token.authorize(category: "invite", action: "accept", notificationID: nil, user: nil)
        }
        _ = try? await appTokens.user(of: text, now: Date(timeIntervalSince1970: 1_800_000_000))
    }
    return 0
}
