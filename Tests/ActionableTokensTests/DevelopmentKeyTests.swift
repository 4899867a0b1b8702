import ActionableTokens
import Foundation
import Testing

/// The development key's file: created whole or not at all, and shared by every process that
/// starts in the same directory.
struct DevelopmentKeyTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("devkey-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A start killed between creating the file and writing the key left it empty (seen in CI:
    /// every later `payload` failed on "a token key is written ID=SECRET"); the next call
    /// replaces it with a key, and the call after that reads the same key.
    @Test func anEmptyKeyFileLeftByAKilledStartIsReplaced() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = (directory as NSString).appendingPathComponent("development-token-key")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let (key, created) = try DevelopmentKey.loadOrCreate(directory: directory)
        #expect(created)
        let again = try DevelopmentKey.loadOrCreate(directory: directory)
        #expect(!again.created)
        #expect(again.key == key)
        // Nothing but the key is left in the directory (the temporary file is gone).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["development-token-key"])
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Many callers at once on a new directory: exactly one creates the key, all use it.
    @Test func concurrentFirstCallsAgreeOnOneKey() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let results = try await withThrowingTaskGroup(of: (ActionTokenKey, Bool).self) { group in
            for _ in 0..<16 { group.addTask { try DevelopmentKey.loadOrCreate(directory: directory) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter(\.1).count == 1)
        #expect(Set(results.map(\.0)).count == 1)
    }
}
