import Foundation

/// The development token key: created once under `.actionable/` so that `serve`, `payload` and
/// `respond` agree without configuration. Never for production (a warning says so).
public enum DevelopmentKey {
    /// The file, relative to the working directory.
    public static let path = ".actionable/development-token-key"

    /// The key in `directory`, creating it (random, mode 0600) when absent.
    /// - Returns: the key, and whether it was created now.
    public static func loadOrCreate(directory: String = ".actionable") throws -> (key: ActionTokenKey, created: Bool) {
        let file = (directory as NSString).appendingPathComponent("development-token-key")
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            return (try ActionTokenKey(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines)), false)
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let secret = Data(bytes).base64EncodedString()
        let text = "dev=\(secret)\n"
        // O_EXCL: when two processes race, one creates the file and the other reads it.
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor < 0 {
            let existing = try String(contentsOfFile: file, encoding: .utf8)
            return (try ActionTokenKey(parsing: existing.trimmingCharacters(in: .whitespacesAndNewlines)), false)
        }
        defer { close(descriptor) }
        _ = text.withCString { write(descriptor, $0, strlen($0)) }
        return (try ActionTokenKey(parsing: "dev=\(secret)"), true)
    }
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
