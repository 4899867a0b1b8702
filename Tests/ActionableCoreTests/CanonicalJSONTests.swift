import ActionableCore
import Foundation
import Testing

/// RFC 8785 (JSON Canonicalization Scheme): its number vectors (Appendix B), its member order
/// (§3.2.3), and the payload's canonical form typed by the category's schema.
struct CanonicalJSONTests {
    /// IEEE 754 bit patterns and the text RFC 8785 Appendix B gives for each.
    @Test(
        arguments: [
            (0x0000_0000_0000_0000, "0"), (0x8000_0000_0000_0000, "0"), (0x0000_0000_0000_0001, "5e-324"),
            (0x8000_0000_0000_0001, "-5e-324"), (0x7FEF_FFFF_FFFF_FFFF, "1.7976931348623157e+308"),
            (0xFFEF_FFFF_FFFF_FFFF, "-1.7976931348623157e+308"), (0x4340_0000_0000_0000, "9007199254740992"),
            (0xC340_0000_0000_0000, "-9007199254740992"), (0x4430_0000_0000_0000, "295147905179352830000"),
            (0x44B5_2D02_C7E1_4AF5, "9.999999999999997e+22"), (0x44B5_2D02_C7E1_4AF6, "1e+23"),
            (0x44B5_2D02_C7E1_4AF7, "1.0000000000000001e+23"), (0x444B_1AE4_D6E2_EF4E, "999999999999999700000"),
            (0x444B_1AE4_D6E2_EF4F, "999999999999999900000"), (0x444B_1AE4_D6E2_EF50, "1e+21"),
            (0x3EB0_C6F7_A0B5_ED8C, "9.999999999999997e-7"), (0x3EB0_C6F7_A0B5_ED8D, "0.000001"),
            (0x41B3_DE43_5555_5553, "333333333.3333332"), (0x41B3_DE43_5555_5554, "333333333.33333325"),
            (0x41B3_DE43_5555_5555, "333333333.3333333"), (0x41B3_DE43_5555_5556, "333333333.3333334"),
            (0x41B3_DE43_5555_5557, "333333333.33333343"), (0xBECB_F647_612F_3696, "-0.0000033333333333333333"),
            (0x4314_3FF3_C1CB_0959, "1424953923781206.2"),
        ] as [(UInt64, String)])
    func numbersPrintAsECMAScriptDoes(bits: UInt64, expected: String) {
        #expect(CanonicalJSON.ecmaScript(Double(bitPattern: bits)) == expected)
    }

    @Test func plainNotationRunsFromAMillionthToBelow1e21() {
        #expect(CanonicalJSON.ecmaScript(2.0) == "2")
        #expect(CanonicalJSON.ecmaScript(4.50) == "4.5")
        #expect(CanonicalJSON.ecmaScript(0.002) == "0.002")
        #expect(CanonicalJSON.ecmaScript(1e-7) == "1e-7")
        #expect(CanonicalJSON.ecmaScript(1e30) == "1e+30")
        #expect(CanonicalJSON.ecmaScript(123_456_789_012) == "123456789012")
        #expect(CanonicalJSON.ecmaScript(-1.5e-9) == "-1.5e-9")
        #expect(CanonicalJSON.ecmaScript(.nan) == "null")
    }

    /// RFC 8785 §3.2.3: members sorted by their names' UTF-16 code units (so U+1F600, a
    /// surrogate pair, sorts before U+FB33), strings with only the escapes JSON requires.
    @Test func membersSortByUTF16CodeUnits() {
        let value = JSONValue.object([
            ("\u{20AC}", .string("Euro Sign")), ("\r", .string("Carriage Return")),
            ("\u{FB33}", .string("Hebrew Letter Dalet With Dagesh")), ("1", .string("One")),
            ("\u{1F600}", .string("Emoji: Grinning Face")), ("\u{80}", .string("Control")),
            ("\u{F6}", .string("Latin Small Letter O With Diaeresis")),
        ])
        let order = ["\\r", "1", "\u{80}", "\u{F6}", "\u{20AC}", "\u{1F600}", "\u{FB33}"]
        let text = CanonicalJSON.text(of: value)
        let positions = order.map { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(text)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(text)")
        #expect(
            CanonicalJSON.text(of: .object([("a", .array([.int(1), .double(2.5), .null, .bool(true), .string("x\ty\u{1}")]))]))
                == #"{"a":[1,2.5,null,true,"x\ty\u0001"]}"#)
    }

    static let schema = PayloadSchema(fields: [
        PayloadField(key: "inviteId", type: .string, required: true), PayloadField(key: "seats", type: .integer),
        PayloadField(key: "price", type: .number), PayloadField(key: "vip", type: .boolean),
        PayloadField(key: "meta", type: .object), PayloadField(key: "tags", type: .array),
    ])

    /// What an app's JSON round trip may change — key order, `2` as `2.0`, escapes, a nested
    /// object's order — leaves the canonical form as it was.
    @Test func anAppsReencodingKeepsTheCanonicalForm() throws {
        let sent: [(String, JSONValue)] = [
            ("inviteId", .string("inv-42 \"é\" \u{1F600}")), ("seats", .int(2)), ("price", .double(12.5)), ("vip", .bool(false)),
            ("meta", .object([("b", .int(1)), ("a", .string("x"))])), ("tags", .array([.string("a"), .double(3.0)])),
        ]
        let canonical = Self.schema.canonicalJSON(of: sent)
        #expect(
            canonical == #"{"inviteId":"inv-42 \"é\" 😀","meta":{"a":"x","b":1},"price":12.5,"seats":2,"tags":["a",3],"vip":false}"#)
        // The same data as another JSON writer spells it, read back by JSONDecoder.
        let respelled =
            #"{"vip":false,"tags":["a",3.0],"seats":2.0,"price":1.25e1,"meta":{"a":"x","b":1.0},"inviteId":"inv-42 \"\u00e9\" \ud83d\ude00"}"#
        let decoded = try JSONDecoder().decode([String: JSONValue].self, from: Data(respelled.utf8))
        #expect(Self.schema.canonicalJSON(of: decoded) == canonical)
        // Through Foundation's JSONSerialization, as the iOS client's userInfo arrives.
        let object = try JSONSerialization.jsonObject(with: Data(JSONValue.object(sent).serialized().utf8))
        let rewritten = try JSONSerialization.data(withJSONObject: object)
        let reread = try JSONDecoder().decode([String: JSONValue].self, from: rewritten)
        #expect(Self.schema.canonicalJSON(of: reread) == canonical)
    }

    /// Only declared keys count; a changed value of any of them changes the text.
    @Test func undeclaredKeysAreLeftOutAndEveryDeclaredValueCounts() {
        let base: [(String, JSONValue)] = [("inviteId", .string("inv-42")), ("seats", .int(2))]
        let canonical = Self.schema.canonicalJSON(of: base)
        #expect(Self.schema.canonicalJSON(of: base + [("aps", .object([])), ("actionToken", .string("t")), ("other", .int(1))]) == canonical)
        for changed: [(String, JSONValue)] in [
            [("inviteId", .string("inv-99")), ("seats", .int(2))], [("inviteId", .string("inv-42")), ("seats", .int(3))],
            [("inviteId", .string("inv-42"))], [("inviteId", .string("inv-42")), ("seats", .string("2"))],
            [("inviteId", .string("inv-42")), ("seats", .int(2)), ("vip", .bool(true))],
        ] {
            #expect(Self.schema.canonicalJSON(of: changed) != canonical, "\(changed)")
        }
    }

    /// An integer key keeps its exact digits past 2^53, where a double would round two ids
    /// to one.
    @Test func largeIntegersKeepTheirDigits() {
        let a = Self.schema.canonicalJSON(of: [("seats", .int(9_007_199_254_740_993))])
        let b = Self.schema.canonicalJSON(of: [("seats", .int(9_007_199_254_740_992))])
        #expect(a == #"{"seats":9007199254740993}"#)
        #expect(a != b)
        #expect(Self.schema.canonicalJSON(of: [("seats", .double(7))]) == #"{"seats":7}"#)
    }
}
