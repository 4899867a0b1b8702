import ActionableCore
import ActionableTestSupport
import Foundation
import Testing

/// Hostile files end in a positioned diagnostic, never in a crash, a hang or unbounded memory.
struct HostileFileTests {
    let loader = CatalogLoader()

    func load(_ text: String, path: String = "hostile.yaml") -> CategoryFile {
        loader.loadFile(path: path, contents: Array(text.utf8))
    }

    @Test func flowNestingOneHundredThousandDeepIsRefusedAtTheLimit() {
        let text =
            "category: deep\nactions: " + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "\n"
        let file = load(text)
        #expect(file.category == nil)
        let diagnostic = file.diagnostics.first
        #expect(diagnostic?.rule == "syntax")
        #expect(diagnostic?.message.contains("nested deeper than \(LoaderLimits.nestingLimit)") == true)
        #expect(diagnostic?.location.line == 2)
    }

    @Test func blockNestingBeyondTheLimitIsRefused() {
        var text = "category: deep\nactions:\n"
        for level in 1...60 { text += String(repeating: "  ", count: level) + "- \n" }
        let file = load(text)
        #expect(file.diagnostics.map(\.rule) == ["syntax"])
        #expect(file.diagnostics.first?.message.contains("nested deeper") == true)
    }

    @Test func deepNestingIsSafeOnSecondaryThreadsToo() {
        // The loader parses on worker threads, whose stacks are smaller than the main thread's.
        let text = "category: deep\nactions: " + String(repeating: "[", count: 50_000) + "\n"
        let paths = (0..<4).map { "deep\($0).yaml" }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-deep-\(UUID())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in paths { FileManager.default.createFile(atPath: directory.appendingPathComponent(path).path, contents: Data(text.utf8)) }
        let files = loader.load(files: paths.map { directory.appendingPathComponent($0).path })
        #expect(files.count == 4)
        #expect(files.allSatisfy { $0.diagnostics.first?.rule == "syntax" })
    }

    @Test func billionLaughsIsRefusedByTheAliasLimit() {
        var lines = ["category: bomb", "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        let names = "abcdefghij".map(String.init)
        for index in 1..<names.count {
            lines.append("\(names[index]): &\(names[index]) [" + Array(repeating: "*\(names[index - 1])", count: 9).joined(separator: ", ") + "]")
        }
        lines.append("? *j\n: x")
        let file = load(lines.joined(separator: "\n") + "\n")
        #expect(file.category == nil)
        #expect(file.diagnostics.map(\.rule) == ["syntax"])
        #expect(file.diagnostics.first?.message.contains("aliases") == true)
    }

    @Test func aliasesUnderTheLimitUsedAsComplexKeysStayCheap() {
        // 3 aliases per level over 10 levels = 30 aliases: 59,049 leaves when hashed as a key.
        var lines = ["category: bomb", "a: &a [x, x, x]"]
        let names = "abcdefghijk".map(String.init)
        for index in 1..<names.count {
            lines.append("\(names[index]): &\(names[index]) [" + Array(repeating: "*\(names[index - 1])", count: 3).joined(separator: ", ") + "]")
        }
        lines.append("? *k\n: x")
        let file = load(lines.joined(separator: "\n") + "\n")
        // It parses; the unknown and non-string keys are schema errors.
        #expect(file.category?.id == "bomb")
        #expect(file.diagnostics.contains { $0.rule == "schema" && $0.message.contains("unknown key \"a\"") })
        #expect(file.diagnostics.contains { $0.rule == "schema" && $0.message.contains("must be strings") })
    }

    @Test func aFileOverTheSizeLimitIsNotRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-big-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big.yaml").path
        let big = "category: big\ndescription: \"" + String(repeating: "x", count: 8 << 20) + "\"\n"
        FileManager.default.createFile(atPath: path, contents: Data(big.utf8))
        let file = loader.loadFile(at: path)
        #expect(file.diagnostics.map(\.rule) == ["syntax"])
        #expect(file.diagnostics.first?.message.contains("larger than 1048576 bytes") == true)
        #expect(file.diagnostics.first?.location == SourceLocation(file: path, line: 1, column: 1))
    }

    @Test func theSizeLimitIsConfigurable() {
        let small = CatalogLoader(limits: LoaderLimits(maximumFileSize: 16))
        let file = small.loadFile(path: "a.yaml", contents: Array("category: abcdefghijklmnop\n".utf8))
        #expect(file.diagnostics.first?.message.contains("larger than 16 bytes") == true)
    }

    @Test func aFileReadFromDiskCanBeReportedUnderAnotherName() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reported-\(UUID()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        FileManager.default.createFile(atPath: path, contents: Data("category: abcdefghijklmnop\n".utf8))
        let loaded = loader.loadFile(at: path, reportedAs: "main:Categories/a.yaml")
        #expect(loaded.path == "main:Categories/a.yaml")
        #expect(loaded.category?.id == "abcdefghijklmnop")
        // Refused by the size bound while it is read, and still under the reported name.
        let tooLarge = CatalogLoader(limits: LoaderLimits(maximumFileSize: 16)).loadFile(at: path, reportedAs: "main:Categories/a.yaml")
        #expect(tooLarge.diagnostics.first?.message.contains("larger than 16 bytes") == true)
        #expect(tooLarge.diagnostics.first?.location == SourceLocation(file: "main:Categories/a.yaml", line: 1, column: 1))
    }

    @Test func binaryBytesAreReportedAsBinary() {
        let bytes: [UInt8] = Array("category: x\n".utf8) + [0x00, 0xFF, 0xFE, 0x00, 0x01]
        let file = loader.loadFile(path: "bin.yaml", contents: bytes)
        #expect(file.diagnostics.first?.rule == "syntax")
        #expect(file.diagnostics.first?.message.contains("binary") == true)
    }

    @Test func latin1IsReportedAtTheFirstBadByte() {
        let bytes: [UInt8] = Array("category: x\ndescription: caf".utf8) + [0xE9] + Array("\n".utf8)
        let file = loader.loadFile(path: "latin1.yaml", contents: bytes)
        #expect(file.diagnostics.first?.location == SourceLocation(file: "latin1.yaml", line: 2, column: 17))
        #expect(file.diagnostics.first?.message.contains("not valid UTF-8") == true)
    }

    @Test(arguments: ["", "\n\n", "# only a comment\n"])
    func emptyFilesNeedACategory(text: String) {
        let file = load(text)
        #expect(file.category == nil)
        #expect(file.diagnostics.map(\.rule) == ["schema"])
        #expect(file.diagnostics.first?.message.contains("empty") == true)
    }

    @Test func duplicateKeysPointAtTheSecondOccurrenceInBlockStyle() {
        let file = load("category: dup\nactions:\n  - id: accept\n    title: A\n    id: again\n")
        #expect(file.diagnostics.map(\.rule) == ["syntax"])
        #expect(file.diagnostics.first?.location == SourceLocation(file: "hostile.yaml", line: 5, column: 5))
        #expect(file.diagnostics.first?.message.contains("duplicate key \"id\" (first at line 3)") == true)
    }

    @Test func duplicateKeysPointAtTheSecondOccurrenceInFlowStyle() {
        let file = load("{category: dup, actions: [{id: a, title: A, id: b}]}\n", path: "dup.json")
        #expect(file.diagnostics.first?.location == SourceLocation(file: "dup.json", line: 1, column: 45))
    }

    @Test func duplicateTopLevelKeys() {
        let file = load("category: a\ndescription: one\ncategory: b\n")
        #expect(file.diagnostics.first?.location.line == 3)
        #expect(file.diagnostics.first?.location.column == 1)
    }

    @Test func anAliasReadsItsAnchorsValueAndAnUndefinedOneIsPositioned() throws {
        let file = load("category: a\nactions:\n  - { id: one, title: &t Shared }\n  - { id: two, title: *t }\n")
        #expect(file.diagnostics.isEmpty)
        #expect(file.category?.actions.map(\.title) == [.plain("Shared"), .plain("Shared")])
        let undefined = load("category: a\nactions:\n  - { id: one, title: &t Shared }\n  - { id: two, title: *nope }\n")
        #expect(undefined.diagnostics.map(\.rule) == ["syntax"])
        #expect(undefined.diagnostics.first?.location == SourceLocation(file: "hostile.yaml", line: 4, column: 23))
        #expect(undefined.diagnostics.first?.message.contains("undefined alias \"nope\"") == true)
    }

    @Test func aSecondDocumentIsRefused() {
        let file = load("category: a\n---\ncategory: b\n")
        #expect(file.diagnostics.map(\.rule) == ["syntax"])
        #expect(file.diagnostics.first?.location.line == 2)
        #expect(file.diagnostics.first?.message.contains("second YAML document") == true)
    }

    @Test(arguments: ["- a\n- b\n", "just text\n", "42\n"])
    func aRootThatIsNotAMappingIsASchemaError(text: String) {
        let file = load(text)
        #expect(file.category == nil)
        #expect(file.diagnostics.map(\.rule) == ["schema"])
        #expect(file.diagnostics.first?.message.contains("must be a mapping") == true)
    }

    @Test func tabsAndBrokenIndentationAreSyntaxErrors() {
        let file = load("category: x\nactions:\n\t- id: a\n")
        #expect(file.diagnostics.first?.rule == "syntax")
        #expect(file.diagnostics.first?.location.line == 3)
    }

    @Test func manyHostileFilesLoadTogetherWithoutCrashing() {
        // Random bytes, generated deterministically, exercise libYAML's error paths.
        var generator = SplitMix64(seed: 42)
        let alphabet = Array("{}[]:,-?&*!|>'\"#%@` \n\tab1".utf8)
        for index in 0..<300 {
            let bytes = (0..<200).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let file = loader.loadFile(path: "fuzz\(index).yaml", contents: bytes)
            // Either it decoded, or something says why not.
            #expect(file.category != nil || !file.diagnostics.isEmpty)
        }
    }
}

struct ManyDiagnosticsTests {
    @Test func aFileWithThousandsOfViolationsResolvesPositionsFromOneTable() throws {
        // 3,000 actions, all "a": every later one is a duplicate_action the linter will locate.
        let actions = String(repeating: "  - { id: a, title: A }\n", count: 3_000)
        let file = CatalogLoader().loadFile(path: "many.yaml", contents: Array(("category: many\nactions:\n" + actions).utf8))
        let map = file.sourceMap
        #expect(map.location(of: "/actions/2999/id") == SourceLocation(file: "many.yaml", line: 3_002, column: 11))
        #expect(map.location(of: "/actions/0") == SourceLocation(file: "many.yaml", line: 3, column: 5))
        #expect(map.contains("/actions/1500/title"))
        #expect(!map.contains("/actions/3000"))
    }
}
