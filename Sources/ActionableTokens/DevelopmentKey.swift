import Foundation

/// The development token key: created once under `.actionable/` so that `serve`, `payload` and
/// `respond` agree without configuration. Never for production (a warning says so).
public enum DevelopmentKey {
    /// The file, relative to the working directory.
    public static let path = ".actionable/development-token-key"

    /// The key in `directory`, creating it (random, mode 0600) when absent.
    ///
    /// The file appears whole or not at all: the key is written to a temporary file first and
    /// linked to its name, so a process killed while creating it leaves no empty key behind. An
    /// empty file (left by a version that wrote in place) is taken as absent and replaced.
    /// - Returns: the key, and whether it was created now.
    public static func loadOrCreate(directory: String = ".actionable") throws -> (key: ActionTokenKey, created: Bool) {
        let file = (directory as NSString).appendingPathComponent("development-token-key")
        if let key = try existing(file) { return (key, false) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = "dev=\(Data(bytes).base64EncodedString())"
        let temporary = (directory as NSString).appendingPathComponent(".development-token-key.\(UUID().uuidString)")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw DevelopmentKeyError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let line = text + "\n"
        let written = line.withCString { write(descriptor, $0, strlen($0)) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == line.utf8.count, synced == 0 else { throw DevelopmentKeyError("cannot write \(temporary)") }
        // link(2) fails when the name exists: when two processes race, one key wins and both use it.
        if link(temporary, file) == 0 { return (try ActionTokenKey(parsing: text), true) }
        guard errno == EEXIST, let key = try existing(file) else {
            throw DevelopmentKeyError("cannot create \(file): \(String(cString: strerror(errno)))")
        }
        return (key, false)
    }

    /// The key in `file`; `nil` when there is none, or when the file is empty (then it is removed,
    /// so that a new key can take its name).
    private static func existing(_ file: String) throws -> ActionTokenKey? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            unlink(file)
            return nil
        }
        do {
            return try ActionTokenKey(parsing: trimmed)
        } catch {
            throw DevelopmentKeyError("\(file) does not hold a development key (\(error)); delete it and a new one is made")
        }
    }
}

/// The development key's file could not be written.
public struct DevelopmentKeyError: Error, CustomStringConvertible {
    /// What failed, naming the file.
    public let description: String
    init(_ description: String) { self.description = description }
}

extension DevelopmentKey {
    /// `configured` when it holds any key; otherwise the development key in `directory`
    /// (created if absent), after `warn` was told where it is — every tool that falls back to
    /// it says so the same way.
    public static func keys(
        _ configured: [ActionTokenKey], directory: String = ".actionable", warn: (String) -> Void
    ) throws -> [ActionTokenKey] {
        guard configured.isEmpty else { return configured }
        let (key, created) = try loadOrCreate(directory: directory)
        let file = (directory as NSString).appendingPathComponent("development-token-key")
        warn(
            "no token key given: action tokens use the development key in \(file)\(created ? " (created now)" : ""); never use it in production (pass --token-key ID=SECRET)"
        )
        return [key]
    }
}
