import ActionableTestSupport
import Foundation
import Testing

/// docs/ios-client.md's Swift blocks that are whole files (they begin with `import`) type-check
/// as an app's code, in Swift 6 mode, against `ActionableClient`, the UserNotifications stand-in
/// and the categories the generator writes for an app. What they take from UIKit and from the
/// reader's app is declared in a prelude (UIKit, as Apple declares it, re-exports Foundation).
@Suite(.timeLimit(.minutes(3)))
struct DocSnippetSwiftTests {
    static let documents = ["docs/ios-client.md"]

    static let prelude = """
        // What the blocks take from UIKit and from the reader's app, on Linux.
        @_exported import ActionableClientStandIn
        @_exported import Foundation

        @MainActor open class UIResponder: NSObject {
            override public init() {}
        }

        @MainActor public protocol UIApplicationDelegate: AnyObject {}

        @MainActor open class UIApplication {
            public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
                public var rawValue: String
                public init(rawValue: String) { self.rawValue = rawValue }
            }
            open func registerForRemoteNotifications() {}
        }

        extension FileManager {
            /// Foundation's on Apple platforms: the container an App Group's targets share.
            public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
                temporaryDirectory.appendingPathComponent(groupIdentifier)
            }
        }

        /// The reader's sign-in state.
        struct Session: Sendable {
            let jwt: String
            static let current: Session? = nil
        }

        /// The reader's navigation.
        @MainActor final class Router {
            static let shared = Router()
            enum Screen { case signInReview }
            func open(_ screen: Screen) {}
        }

        """

    /// Type-checks `code` beside the prelude and the generated categories; what swiftc said.
    static func typeCheck(_ code: String) async throws -> CommandLineRunner.Run {
        let directory = try CommandLineRunner.temporaryDirectory(["Prelude.swift": prelude, "Snippet.swift": code])
        defer { try? FileManager.default.removeItem(at: directory) }
        let generated = try await CommandLineRunner.run(
            ["generate", "swift", "Categories", "--target", "app", "--output", directory.appendingPathComponent("NotificationCategories.swift").path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let modules = CommandLineRunner.binary.deletingLastPathComponent().appendingPathComponent("Modules")
        return try await CommandLineRunner.runTool(
            "swiftc",
            [
                "-typecheck", "-swift-version", "6", "-module-name", "MyApp", "-I", modules.path, "Prelude.swift", "NotificationCategories.swift",
                "Snippet.swift",
            ], in: directory, environment: [:])
    }

    @Test func everyWholeFileBlockTypeChecks() async throws {
        let snippets = try DocSnippet.all("swift", in: Self.documents).filter { $0.code.hasPrefix("import ") }
        #expect(snippets.count >= 3, "\(snippets)")
        for snippet in snippets {
            let run = try await Self.typeCheck(snippet.code)
            #expect(run.status == 0, "\(snippet) (Snippet.swift is the block):\n\(run.stderr)")
        }
    }

    /// The check is not blind: a block that misuses the library fails it.
    @Test func aBrokenBlockFails() async throws {
        let run = try await Self.typeCheck(
            """
            import ActionableClient

            let handler = NotificationResponseHandler(reporter: 42)

            """)
        #expect(run.status != 0 && run.stderr.contains("Snippet.swift:3:"), "\(run.stderr)")
    }
}
