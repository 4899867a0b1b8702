import Foundation

/// The fenced code blocks of the project's documents, so that the tests compile what a reader
/// copies (TypeScript with tsc, Kotlin with kotlinc, Swift with swiftc against the stand-ins).
public struct DocSnippet: Sendable, CustomStringConvertible {
    /// The document, relative to the repository.
    public var file: String
    /// The line of the opening fence, from 1.
    public var line: Int
    /// The block's text, without its fences.
    public var code: String

    /// `file:line`, as an editor opens it.
    public var description: String { "\(file):\(line)" }

    /// Every block fenced with ` ```language ` in the Markdown files under `paths` (files, or
    /// folders searched to any depth), relative to the repository; in path order, then by line.
    public static func all(_ language: String, in paths: [String]) throws -> [DocSnippet] {
        let repository = CommandLineRunner.repository
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: repository.appendingPathComponent(path).path, isDirectory: &isFolder) else {
                continue
            }
            if !isFolder.boolValue {
                files.append(path)
                continue
            }
            let found = FileManager.default.enumerator(atPath: repository.appendingPathComponent(path).path)?.allObjects as? [String] ?? []
            files += found.filter { $0.hasSuffix(".md") }.sorted().map { path + "/" + $0 }
        }
        var snippets: [DocSnippet] = []
        for file in files {
            let text = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8)
            var open: (line: Int, lines: [String])?
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if var block = open {
                    if trimmed == "```" {
                        snippets.append(DocSnippet(file: file, line: block.line, code: block.lines.joined(separator: "\n") + "\n"))
                        open = nil
                    } else {
                        block.lines.append(String(line))
                        open = block
                    }
                } else if trimmed == "```" + language {
                    open = (index + 1, [])
                }
            }
        }
        return snippets
    }
}
