public import ActionableCore
import Foundation

/// What generated Swift is for.
public enum GenerationTarget: String, Hashable, Sendable, CaseIterable {
    /// An iOS app: registration, identifiers, payloads read from `userInfo` (``AppGenerator``).
    case app
    /// A Swift backend: identifiers and `Codable` payloads for the router and the builder
    /// (``ServerGenerator``).
    case server
}

/// The one way from checked category files to generated Swift: `actionable generate swift` and
/// the ActionableGenerator build plugin's tool both call ``swift(for:from:options:relativeTo:)``.
public enum Generation {
    /// The Swift source for `target` from `files` (checked by the linter first; files without a
    /// category are skipped). With `base`, each file's path is written relative to it, so that
    /// the generated header is the same on every machine.
    public static func swift(
        for target: GenerationTarget, from files: [CategoryFile], options: GenerationOptions = GenerationOptions(),
        relativeTo base: String? = nil
    ) throws(GenerationError) -> String {
        let sources = sources(of: files, relativeTo: base)
        switch target {
        case .app: return try AppGenerator(options: options).generate(sources)
        case .server: return try ServerGenerator(options: options).generate(sources)
        }
    }

    /// The TypeScript source (``TypeScriptGenerator``) from `files`, named relative to `base` when given.
    public static func typescript(from files: [CategoryFile], relativeTo base: String? = nil) throws(GenerationError) -> String {
        try TypeScriptGenerator().generate(sources(of: files, relativeTo: base))
    }

    /// Each file's category, named by its path (relative to `base` when given).
    public static func sources(of files: [CategoryFile], relativeTo base: String? = nil) -> [SourceCategory] {
        files.compactMap { file in
            file.category.map { SourceCategory(path: base.map { relativePath(of: file.path, from: $0) } ?? file.path, category: $0) }
        }
    }

    /// `path` relative to `base` (both made absolute and standardized), with `..` where needed.
    static func relativePath(of path: String, from base: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let origin = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, origin.count) && target[common] == origin[common] { common += 1 }
        let ups = Array(repeating: "..", count: origin.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }
}
