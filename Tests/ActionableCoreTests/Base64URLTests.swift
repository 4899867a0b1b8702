import ActionableCore
import Foundation
import Testing

/// Tokens (admin session cookies, CSRF tokens, delivery cursors) have exactly one spelling.
struct Base64URLTests {
    @Test(arguments: [0, 1, 2, 3, 31, 32, 33])
    func everyLengthRoundTripsWithoutPadding(count: Int) throws {
        let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) })
        let text = Base64URL.encode(data)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(Base64URL.decode(text) == data)
        #expect(Base64URL.decode(text + String(repeating: "=", count: (4 - text.count % 4) % 4)) == data)
    }

    @Test func setUnusedTrailingBitsAreRefused() throws {
        // 32 bytes (an HMAC) end in a character that carries 4 bits and 2 unused ones.
        let text = Base64URL.encode(Data(repeating: 0, count: 32))
        #expect(text.last == "A")
        #expect(Base64URL.decode(text) != nil)
        for other in ["B", "C", "D"] {
            #expect(Base64URL.decode(text.dropLast() + other) == nil, "\(other) decodes to the same bytes as A")
        }
        #expect(Base64URL.decode(text.dropLast() + "E") != nil)  // other bytes, still canonical
    }

    @Test(arguments: ["a", "ab$c", "ab+c", "ab/c", "====", "abc=d"])
    func notBase64URLIsRefused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
