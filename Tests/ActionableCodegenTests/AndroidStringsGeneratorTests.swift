import ActionableCodegen
import ActionableCore
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `res/values*/strings.xml` for Android: one folder per locale with Android's qualifiers, every
/// value escaped as Android's resource compiler reads it, each file well-formed XML.
struct AndroidStringsGeneratorTests {
    static let catalog = """
        category: chat.room
        actions:
          - id: reply
            title: { en: Reply, de: Antworten, pt-BR: Responder, zh-Hans: 回复, es-419: Responder }
            input: { placeholder: { en: "Say hi @friend", de: "Sag hallo" } }
          - id: like
            title: { en: "It's 100% \\"great\\"", de: "@first" }
          - id: old
            title: Old
            retired: true
          - id: ask
            title: "? maybe "
        """

    static func generate(_ text: String) throws -> [String: String] {
        let file = CatalogLoader().loadFile(path: "chat.yaml", contents: Array(text.utf8))
        let category = try #require(file.category)
        return Dictionary(
            uniqueKeysWithValues: try AndroidStringsGenerator().generate([SourceCategory(path: "chat.yaml", category: category)]).map {
                ($0.path, $0.text)
            })
    }

    /// A string resource's value as Android reads it back: the XML text unescaped, then
    /// Android's backslash escapes.
    static func androidValues(_ xml: String) throws -> [String: String] {
        final class Reader: NSObject, XMLParserDelegate {
            var values: [String: String] = [:]
            var name: String?
            var text = ""
            func parser(
                _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]
            ) {
                if element == "string" { (name, text) = (attributes["name"], "") }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
            func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
                if element == "string", let name { values[name] = text }
                name = nil
            }
        }
        let reader = Reader()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        return reader.values.mapValues { raw in
            var output = ""
            var iterator = raw.unicodeScalars.makeIterator()
            while let scalar = iterator.next() {
                guard scalar == "\\", let next = iterator.next() else {
                    output.unicodeScalars.append(scalar)
                    continue
                }
                switch next {
                case "n": output += "\n"
                case "t": output += "\t"
                case "u":
                    let hex = String(String.UnicodeScalarView((0..<4).compactMap { _ in iterator.next() }))
                    output.unicodeScalars.append(Unicode.Scalar(UInt32(hex, radix: 16) ?? 0x3F) ?? "?")
                default: output.unicodeScalars.append(next)
                }
            }
            return output
        }
    }

    @Test func eachLocaleHasItsFolderAndEveryValueReadsBackAsWritten() throws {
        let files = try Self.generate(Self.catalog)
        #expect(
            Set(files.keys) == [
                "values/strings.xml", "values-de/strings.xml", "values-pt-rBR/strings.xml", "values-b+zh+Hans/strings.xml",
                "values-b+es+419/strings.xml",
            ])
        let english = try Self.androidValues(try #require(files["values/strings.xml"]))
        #expect(
            english == [
                "actionable_chat_room_reply_title": "Reply", "actionable_chat_room_reply_label": "Say hi @friend",
                "actionable_chat_room_like_title": "It's 100% \"great\"", "actionable_chat_room_ask_title": "? maybe ",
            ])
        let german = try Self.androidValues(try #require(files["values-de/strings.xml"]))
        #expect(
            german == [
                "actionable_chat_room_reply_title": "Antworten", "actionable_chat_room_reply_label": "Sag hallo",
                "actionable_chat_room_like_title": "@first",
            ])
        #expect(try Self.androidValues(try #require(files["values-b+zh+Hans/strings.xml"])) == ["actionable_chat_room_reply_title": "回复"])
        // What Android's resource compiler would misread is escaped: a leading @ or ?, quotes, %.
        let raw = try #require(files["values/strings.xml"])
        #expect(raw.contains(#"<string name="actionable_chat_room_like_title" formatted="false">It\'s 100% \"great\"</string>"#))
        #expect(raw.contains(#">\? maybe\u0020</string>"#))
        #expect(try #require(files["values-de/strings.xml"]).contains(#">\@first</string>"#))
        #expect(!raw.contains("_old_"))  // retired: the app no longer shows it
    }

    @Test func twoIdentifiersThatBecomeOneResourceAreRefused() throws {
        let file = CatalogLoader().loadFile(
            path: "x.yaml", contents: Array("category: x\nactions: [{ id: a.b, title: A }, { id: a-b, title: B }]\n".utf8))
        let category = try #require(file.category)
        #expect(throws: GenerationError.self) { try AndroidStringsGenerator().generate([SourceCategory(path: "x.yaml", category: category)]) }
    }
}
