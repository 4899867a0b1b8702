// The tool of the ActionableGenerator build plugin: actionable-generator CONFIG OUTPUT_FILE.
// It depends on the core, the linter and the generator only (no server dependencies), so a
// plugin build stays small.
import ActionableCodegen
import ActionableCore
import ActionableLint
import Foundation

func run(_ arguments: [String]) throws {
    guard arguments.count == 3 else { throw GeneratorFailure("usage: actionable-generator CONFIG OUTPUT_FILE") }
    let configPath = arguments[1]
    let configuration = try GeneratorConfiguration.load(configPath)
    let directory = URL(fileURLWithPath: configPath).deletingLastPathComponent()
    let categories = directory.appendingPathComponent(configuration.categories ?? "Categories").standardizedFileURL.path
    let files: [CategoryFile]
    do {
        files = try Linter().checkedFiles(at: categories)
    } catch {
        throw GeneratorFailure("\(error)")
    }
    // Paths relative to the configuration's directory, so the header is the same on every machine.
    let options = GenerationOptions(name: configuration.name ?? "NotificationCategories", access: configuration.access ?? .public)
    let text = try Generation.swift(for: configuration.target, from: files, options: options, relativeTo: directory.path)
    let output = URL(fileURLWithPath: arguments[2])
    // Unchanged output is not rewritten, so what depends on it is not rebuilt.
    if (try? String(contentsOf: output, encoding: .utf8)) != text {
        try Data(text.utf8).write(to: output, options: .atomic)
    }
}

do {
    try run(CommandLine.arguments)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
