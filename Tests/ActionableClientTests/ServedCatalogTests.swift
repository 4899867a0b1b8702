import ActionableClient
import ActionableTestSupport
import Foundation
import Testing

/// What an app makes of the body of `GET /v1/categories`: every rule of the category files
/// checked again (a server or a proxy can answer anything), texts in the device's language.
struct ServedCatalogTests {
    static func catalog(_ categories: String) -> Data { Data(#"{"version":1,"categories":[\#(categories)]}"#.utf8) }

    static let poll = #"""
        {"category":"poll","options":["customDismissAction","someFutureOption"],"intents":[],
         "hiddenPreviewsBodyPlaceholder":{"en":"%u polls","de":"%u Umfragen"},
         "payload":{"pollId":{"type":"string","required":true}},
         "actions":[
           {"id":"no","title":{"en":"No","de":"Nein","pt-BR":"Não"},"activation":"background","destructive":true,"authenticationRequired":true,"retired":false},
           {"id":"yes","title":{"en":"Yes","de":"Ja","pt-BR":"Sim"},"activation":"foreground","destructive":false,"authenticationRequired":false,"icon":{"system":"checkmark"},"retired":false},
           {"id":"old","title":"Old","activation":"background","destructive":false,"authenticationRequired":false,"retired":true},
           {"id":"why","title":{"en":"Why?","de":"Warum?"},"activation":"background","destructive":false,"authenticationRequired":false,
            "input":{"button":{"en":"Send","de":"Senden"},"placeholder":"…","maxLength":140},"retired":false}],
         "contexts":{"default":["yes","no","why"],"minimal":["yes","no"]},"retired":false}
        """#

    @Test func actionsComeInTheDefaultContextsOrderWithoutRetiredOnesAndTitlesInTheDevicesLanguage() throws {
        let served = try ServedCatalog(json: Self.catalog(Self.poll), languages: ["de-CH", "en"])
        let poll = try #require(served.category("poll"))
        #expect(served.skipped.isEmpty)
        #expect(poll.actions.map(\.identifier) == ["yes", "no", "why"])
        #expect(poll.actions.map(\.title) == ["Ja", "Nein", "Warum?"])
        #expect(poll.hiddenPreviewsBodyPlaceholder == "%u Umfragen")
        #expect(poll.options == ["customDismissAction"])  // an option this client does not know is left out
        #expect(poll.payloadKeys == ["pollId"])
        #expect(poll.actions[0].foreground && !poll.actions[0].destructive && poll.actions[0].icon == .system("checkmark"))
        #expect(poll.actions[1].destructive && poll.actions[1].authenticationRequired)
        #expect(poll.actions[2].input == .init(button: "Senden", placeholder: "…", maxLength: 140))

        #expect(try ServedCatalog(json: Self.catalog(Self.poll), languages: ["pt-BR"]).category("poll")?.actions[0].title == "Sim")
        #expect(try ServedCatalog(json: Self.catalog(Self.poll), languages: ["pt-PT"]).category("poll")?.actions[0].title == "Sim")
        // No language of the device: English when the catalog has it, whatever the JSON's key order.
        #expect(try ServedCatalog(json: Self.catalog(Self.poll), languages: ["ja"]).category("poll")?.actions[0].title == "Yes")
        #expect(try ServedCatalog(json: Self.catalog(Self.poll), languages: []).category("poll")?.actions[1].title == "No")
    }

    @Test func aRetiredCategoryIsLeftOutAndABrokenOneIsSkippedWithItsReasonWhileTheOthersStay() throws {
        func action(_ id: String) -> String { #"{"id":"\#(id)","title":"\#(id)"}"# }
        let eleven = (0..<11).map { action("a\($0)") }.joined(separator: ",")
        let broken = [
            #"{"category":"too-many","actions":[\#(eleven)]}"#,
            #"{"category":"bad id!","actions":[]}"#,
            #"{"category":"reserved","actions":[{"id":"com.apple.UNNotificationDefaultActionIdentifier","title":"Open"}]}"#,
            #"{"category":"twice","actions":[\#(action("a")),\#(action("a"))]}"#,
            #"{"category":"no-title","actions":[{"id":"a","title":"  "}]}"#,
            #"{"category":"context","actions":[\#(action("a"))],"contexts":{"default":["b"]}}"#,
            #"{"category":"five","actions":[\#((0..<5).map { action("a\($0)") }.joined(separator: ","))],"contexts":{"default":["a0","a1","a2","a3","a4"]}}"#,
            #"{"category":"length","actions":[{"id":"a","title":"A","input":{"maxLength":0}}]}"#,
            #"{"category":"types","actions":[{"id":"a","title":42}]}"#,
            #"{"category":"\#(String(repeating: "x", count: 65))","actions":[]}"#,
            #""not an object""#,
        ]
        let retired = #"{"category":"gone","actions":[\#(action("a"))],"retired":true}"#
        let good = #"{"category":"fine","actions":[\#((0..<10).map { action("a\($0)") }.joined(separator: ","))]}"#
        let served = try ServedCatalog(json: Self.catalog((broken + [retired, good]).joined(separator: ",")), languages: ["en"])
        #expect(served.categories.map(\.identifier) == ["fine"])
        #expect(served.categories[0].actions.count == 10)
        #expect(served.skipped.count == broken.count)
        #expect(served.skipped[0].contains("11 actions, iOS registers at most 10"))
        #expect(served.skipped[3].contains("share an identifier"))
        #expect(served.skipped[5].contains("names 'b'"))
        #expect(served.skipped[6].contains("at most 4"))
        #expect(served.skipped[7].contains("maxLength 0"))
    }

    /// The system fills in these strings' specifiers: the summary format gets the count, then the
    /// summary argument; the hidden-previews placeholder the count alone. A server may name those,
    /// as their types, in order or by position; a text with any other specifier is left out.
    /// (The check looked only at the conversion letter: `%9$@`, `%2147483647u`, `%1$@` over the
    /// count and `%@ %@ %@` passed.)
    @Test func placeholdersAndSummaryFormatsKeepOnlyTheSpecifiersTheSystemFills() throws {
        func served(_ format: String) throws -> ServedCategory? {
            try ServedCatalog(
                json: Self.catalog(#"{"category":"a","summaryFormat":"\#(format)","hiddenPreviewsBodyPlaceholder":"\#(format)","actions":[]}"#),
                languages: []
            ).category("a")
        }
        for format in ["%u more", "100%% done", "%lu new", "%d new", "%1$u new", "plain"] {
            #expect(try served(format)?.summaryFormat == format, "\(format)")
            #expect(try served(format)?.hiddenPreviewsBodyPlaceholder == format, "\(format)")
        }
        for format in ["%u more from %@", "%2$@ sent %1$u", "%1$u from %2$@, %2$@"] {
            #expect(try served(format)?.summaryFormat == format, "\(format)")
            #expect(try served(format)?.hiddenPreviewsBodyPlaceholder == nil, "the placeholder has no text argument: \(format)")
        }
        let refused = [
            "%n", "%s", "%@%x", "%", "%08.3f", "%1$s", "%9$@", "%3$u", "%2147483647u", "%1$@", "%@ %@ %@", "%@", "%u %u",
            "%1$u %@", "%0$u", "%-5u", "%.3u", "%u %@ %@",
        ]
        for format in refused {
            #expect(try served(format)?.summaryFormat == nil, "\(format)")
            #expect(try served(format)?.hiddenPreviewsBodyPlaceholder == nil, "\(format)")
            #expect(try served(format) != nil, "the category itself stays: \(format)")
        }
    }

    @Test func aServedTwiceCategoryKeepsItsFirstCopy() throws {
        let served = try ServedCatalog(
            json: Self.catalog(#"{"category":"a","actions":[{"id":"x","title":"X"}]},{"category":"a","actions":[]}"#), languages: [])
        #expect(served.categories.count == 1 && served.categories[0].actions.count == 1)
        #expect(served.skipped == ["categories[1]: category 'a' is served twice"])
    }

    @Test func whatIsNotAVersionOneCatalogIsRefusedWhole() {
        for body in [
            "", "<html>502 Bad Gateway</html>", "[]", #"{"version":2,"categories":[]}"#, #"{"version":"1","categories":[]}"#,
            #"{"version":1}"#, #"{"version":1,"categories":{}}"#, "null", #"{"version":1.5,"categories":[]}"#,
        ] {
            #expect(throws: ServedCatalogError.self, "\(body)") { try ServedCatalog(json: Data(body.utf8), languages: []) }
        }
        let many = Array(repeating: #"{"category":"a","actions":[]}"#, count: ServedCatalog.maximumCategories + 1)
        #expect(throws: ServedCatalogError.self) { try ServedCatalog(json: Self.catalog(many.joined(separator: ",")), languages: []) }
    }

    /// Every prefix and thousands of byte flips of a valid catalog: an error or a catalog whose
    /// every category keeps the rules, never a crash (a seeded generator: the same run each time).
    @Test func mangledCatalogsNeverCrashAndWhatIsLeftKeepsTheRules() {
        let valid = Array(Self.catalog(Self.poll + "," + #"{"category":"b","actions":[{"id":"x","title":"X"}]}"#))
        var generator = SplitMix64(seed: 0x5EED)
        var inputs = (0..<valid.count).map { Array(valid[..<$0]) }
        for _ in 0..<3_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            inputs.append(bytes)
        }
        var parsed = 0
        for input in inputs {
            guard let served = try? ServedCatalog(json: Data(input), languages: ["de"]) else { continue }
            parsed += 1
            for category in served.categories {
                #expect(category.actions.count <= 10)
                #expect(Set(category.actions.map(\.identifier)).count == category.actions.count)
                #expect(category.actions.allSatisfy { !$0.title.trimmingCharacters(in: .whitespaces).isEmpty })
                #expect(category.identifier.utf8.count <= 64)
            }
        }
        #expect(parsed > 0 && parsed < inputs.count)
    }
}
