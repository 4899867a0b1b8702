import ActionableCore
import Foundation

/// The category files of a directory as they were at a git revision, for `actionable diff
/// --baseline REF`. Files are labelled `REF:path` (git's own notation), so a removal points at
/// the line where the old revision had it.
struct GitBaseline {
    let reference: String
    /// The category directory, as given (relative to the current directory or absolute).
    let directory: String

    /// Why a baseline cannot be read; `actionable diff` exits with status 2.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Loads the files, or returns an empty catalog (with `note` set) when the directory did not
    /// exist at the revision yet.
    func load(with loader: CatalogLoader) throws -> (files: [CategoryFile], note: String?) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "\(directory): not a directory; --baseline compares a directory of category files")
        }
        let verify = try Self.git(["rev-parse", "--verify", "--quiet", "\(reference)^{commit}"], in: directory)
        guard verify.status == 0 else {
            let inRepository = try Self.git(["rev-parse", "--git-dir"], in: directory).status == 0
            throw Failure(
                description: inRepository
                    ? "--baseline \(reference): no such commit in this repository; fetch it first "
                        + "(in GitHub Actions: actions/checkout with fetch-depth: 0, or git fetch origin main)"
                    : "--baseline \(reference): \(directory) is not inside a git repository")
        }
        let tree = try Self.git(["rev-parse", "--verify", "--quiet", "\(reference):./"], in: directory)
        guard tree.status == 0 else {
            return ([], "note: \(directory) does not exist at \(reference); every category counts as added")
        }
        // In a subdirectory, git archive would also filter by that directory: run it at the top.
        let top = try Self.git(["rev-parse", "--show-toplevel"], in: directory)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Self.extract(
            tree.output.trimmingCharacters(in: .whitespacesAndNewlines),
            from: top.output.trimmingCharacters(in: .whitespacesAndNewlines), into: scratch.path)
        let root = scratch.path
        let paths = try loader.categoryFiles(in: [root])
        let label = "\(reference):\(directory.hasSuffix("/") ? String(directory.dropLast()) : directory)"
        let files = ParallelChunks.flatMap(count: paths.count) { range in
            paths[range].map { loader.loadFile(at: $0, reportedAs: label + $0.dropFirst(root.count)) }
        }
        return (files, nil)
    }

    /// `git archive TREE | tar -x -C DESTINATION`, run in `directory` (the work tree's top).
    private static func extract(_ tree: String, from directory: String, into destination: String) throws {
        let archive = Process()
        archive.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        archive.arguments = ["git", "archive", "--format=tar", tree]
        archive.currentDirectoryURL = URL(fileURLWithPath: directory)
        let untar = Process()
        untar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        untar.arguments = ["tar", "-x", "-f", "-", "-C", destination]
        let pipe = Pipe()
        let errors = Pipe()
        let untarErrors = Pipe()
        archive.standardOutput = pipe
        archive.standardError = errors
        untar.standardInput = pipe
        untar.standardError = untarErrors
        // Foundation closes the parent's end of a pipe once a child has it: start the reader first.
        try untar.run()
        try archive.run()
        archive.waitUntilExit()
        untar.waitUntilExit()
        guard archive.terminationStatus == 0, untar.terminationStatus == 0 else {
            // readToEnd throws where availableData would stop the process (on EINTR, say).
            let output =
                ((try? errors.fileHandleForReading.readToEnd()) ?? Data()) + ((try? untarErrors.fileHandleForReading.readToEnd()) ?? Data())
            let message = String(decoding: output, as: UTF8.self)
            throw Failure(description: "--baseline: could not read \(tree) from git: \(message)")
        }
    }

    /// Runs git in `directory`; standard output is returned, standard error discarded.
    private static func git(_ arguments: [String], in directory: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "--baseline needs git on the PATH: \(error)")
        }
        let data = (try? output.fileHandleForReading.readToEnd()) ?? Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
