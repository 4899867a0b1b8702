import ActionableCodegen
import ActionableCore
import ActionableLint
import ActionablePayload
import ActionableRouter
import ActionableTestSupport
import ActionableTesting
import Foundation
import Testing

/// `--target server`: the generated constants and payload types, pinned by the file generated
/// from the example categories (compiled into this test target, so it must also type-check).
struct ServerGeneratorTests {
    static let generatedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Generated/NotificationCategories.swift")

    /// The example categories with their paths as the command line names them (`Categories/…`).
    static func exampleSources() throws -> [SourceCategory] {
        let prefix = CommandLineRunner.repository.path + "/"
        return try Linter().checkedFiles(at: prefix + "Categories").compactMap { file in
            file.category.map { SourceCategory(path: String(file.path.dropFirst(prefix.count)), category: $0) }
        }
    }

    @Test func theCommittedFileIsWhatTheExampleCategoriesGenerate() throws {
        let generated = try ServerGenerator().generate(try Self.exampleSources())
        let committed = try String(contentsOf: Self.generatedFile, encoding: .utf8)
        #expect(generated == committed, "regenerate: actionable generate swift --target server --output \(Self.generatedFile.path)")
    }

    @Test func theCommandLinePrintsTheSameBytes() async throws {
        let run = try await CommandLineRunner.run(["generate", "swift", "--target", "server"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try String(contentsOf: Self.generatedFile, encoding: .utf8)))
    }

    @Test func theOutputDoesNotDependOnTheOrderOfTheFiles() throws {
        let sources = try Self.exampleSources()
        let generator = ServerGenerator()
        #expect(try generator.generate(sources) == generator.generate(sources.reversed()))
    }

    @Test func generatedTypesBuildPayloadsAndRouteTaps() async throws {
        let catalog = Catalog(try Self.exampleSources().map(\.category))
        typealias Invite = NotificationCategories.Invite
        let payload = try PayloadBuilder(catalog: catalog).build(
            category: Invite.identifier, aps: APS(alert: .body("Team dinner")), custom: Invite.Payload(inviteId: "inv-42", seats: 3))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(payload.bytes)) as? [String: Any])
        #expect(json["inviteId"] as? String == "inv-42")
        #expect(json["seats"] as? Int == 3)
        #expect(json["eventName"] == nil)

        var builder = RouterBuilder(catalog: catalog)
        builder.on(Invite.identifier, Invite.Action.accept, payload: Invite.Payload.self) { _, invite, _ in
            invite.inviteId == "inv-42" && invite.seats == nil ? .done : .fail(reason: "decoded \(invite)")
        }
        let outcome = try await builder.build().test(
            .tap(Invite.identifier, Invite.Action.accept, payload: ["inviteId": "inv-42"]))
        #expect(outcome == .done)
    }

    @Test func identifiersThatAreNotSwiftNamesGetTheDocumentedMapping() throws {
        let category = NotificationCategory(
            id: "2fa",
            payload: PayloadSchema(fields: [PayloadField(key: "class", type: .string, required: true), PayloadField(key: "x-y", type: .array)]),
            actions: [NotificationAction(id: "default", title: .plain("D")), NotificationAction(id: "digest.read", title: .plain("R"))])
        let text = try ServerGenerator(options: GenerationOptions(name: "Cats", access: .internal))
            .generate([SourceCategory(path: "Categories/2fa.yaml", category: category)])
        #expect(text.contains("internal enum Cats {"))
        #expect(text.contains("internal enum _2fa {"))
        #expect(text.contains("internal static let `default`: ActionID = \"default\""))
        #expect(text.contains("internal static let digestRead: ActionID = \"digest.read\""))
        #expect(text.contains("internal var `class`: String"))
        #expect(text.contains("case xY = \"x-y\""))
        #expect(text.contains("internal var xY: [JSONValue]?"))
        #expect(!text.contains("public"))
    }

    @Test func twoIdentifiersThatBecomeOneNameAreRefusedNamingBoth() throws {
        let first = SourceCategory(path: "Categories/digest.read.yaml", category: NotificationCategory(id: "digest.read"))
        let second = SourceCategory(path: "Categories/digest-read.yaml", category: NotificationCategory(id: "digest-read"))
        let error = #expect(throws: GenerationError.self) { try ServerGenerator().generate([first, second]) }
        #expect(error?.description.contains("Categories/digest.read.yaml") == true)
        #expect(error?.description.contains("Categories/digest-read.yaml") == true)
        #expect(error?.description.contains("DigestRead") == true)

        let actions = NotificationCategory(
            id: "c", actions: [NotificationAction(id: "a.b", title: .plain("1")), NotificationAction(id: "a-b", title: .plain("2"))])
        #expect(throws: GenerationError.self) { try ServerGenerator().generate([SourceCategory(path: "c.yaml", category: actions)]) }
    }

    @Test func anEmptyCatalogGivesAnEmptyEnclosingType() throws {
        let text = try ServerGenerator().generate([])
        #expect(text.hasSuffix("public enum NotificationCategories {\n}\n"))
    }

    @Test func aCatalogWithLintErrorsIsRefused() async throws {
        let directory = try CommandLineRunner.temporaryDirectory(["Categories/bad.yaml": "category: bad\nactions: [{ id: a }]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await CommandLineRunner.run(["generate", "swift", "--target", "server"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.yaml"))
        #expect(run.stdout.isEmpty)
    }
}
