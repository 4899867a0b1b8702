public import Foundation

/// Runs the built `actionable` binary as CI and users would, for the command-line tests.
public enum CommandLineRunner {
    /// What a run printed and how it ended.
    public struct Run: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The repository's root.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `actionable` binary: SwiftPM puts executables beside the test bundle.
    public static let binary: URL = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("actionable")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/actionable")
    }()

    /// Runs `actionable ARGUMENTS` in `directory`.
    ///
    /// The wait is on a thread of its own, never on a thread of Swift's cooperative pool: a test
    /// that waited there for a compiler (kotlinc takes many seconds) held one of the pool's few
    /// threads (two on a two-core machine), and every other test's tasks — an in-process
    /// upstream's answer, a forwarder's read — stalled behind it while their clocks ran on.
    public static func run(_ arguments: [String], in directory: URL = repository) async throws -> Run {
        try await offPool { try runBlocking(arguments, in: directory) }
    }

    private static func runBlocking(_ arguments: [String], in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes are drained at once, before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        DispatchQueue.global().async(group: group) { outData = PipeReading.toEnd(out.fileHandleForReading.fileDescriptor) }
        let errData = PipeReading.toEnd(err.fileHandleForReading.fileDescriptor)
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs another program (found on the PATH) in `directory`, its output discarded; returns its
    /// status. Waits off the cooperative pool, as ``run(_:in:)``.
    public static func runTool(_ name: String, _ arguments: [String], in directory: URL) async throws -> Int32 {
        try await offPool { try runToolBlocking(name, arguments, in: directory) }
    }

    private static func runToolBlocking(_ name: String, _ arguments: [String], in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs another program (found on the PATH) in `directory` with `environment` added to this
    /// process's; returns its status and output. Waits off the cooperative pool, as ``run(_:in:)``.
    public static func runTool(
        _ name: String, _ arguments: [String], in directory: URL, environment: [String: String]
    ) async throws -> Run {
        try await offPool { try runToolBlocking(name, arguments, in: directory, environment: environment) }
    }

    private static func runToolBlocking(
        _ name: String, _ arguments: [String], in directory: URL, environment: [String: String]
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes are drained at once, so a chatty tool cannot fill one and stall.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        DispatchQueue.global().async(group: group) { outData = PipeReading.toEnd(out.fileHandleForReading.fileDescriptor) }
        let errData = PipeReading.toEnd(err.fileHandleForReading.fileDescriptor)
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `work`, which blocks, on a thread of its own and resumes with its result.
    public static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// A new temporary directory holding `files` (relative path → text) and, with
    /// `exampleCategories`, a copy of the repository's `Categories/`.
    public static func temporaryDirectory(_ files: [String: String], exampleCategories: Bool = false) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if exampleCategories {
            try FileManager.default.copyItem(
                at: repository.appendingPathComponent("Categories"),
                to: directory.appendingPathComponent("Categories"))
        }
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }
}
