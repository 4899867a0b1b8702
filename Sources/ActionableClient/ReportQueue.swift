import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why the report queue could not keep a report (the disk is full, the directory cannot be written).
public struct ReportQueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or directory at fault.
    public var path: String
    /// What failed, with the system's reason.
    public var reason: String

    public var description: String { "report queue \(path): \(reason)" }
}

/// The report queue directory: one file per report, named so that names sort by the time they were
/// saved. A file is written to a temporary name, flushed to disk (`fsync`), renamed into place
/// and the directory flushed too, so a report is either whole in the report queue or not there at all,
/// whenever the process dies. Files that are not reports are moved to `quarantine/`.
struct ReportQueue: Sendable {
    static let suffix = ".report"
    static let temporaryPrefix = ".tmp-"
    static let quarantineName = "quarantine"

    let directory: URL
    let synchronous: Bool

    /// A report queue in `directory`, created now if it can be (else on the first write, which then
    /// reports why it cannot).
    init(directory: URL, synchronous: Bool) {
        self.directory = directory.standardizedFileURL
        self.synchronous = synchronous
        try? createDirectory()
    }

    private func createDirectory() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ReportQueueError(path: directory.path, reason: "cannot create the directory (\(error.localizedDescription))")
        }
    }

    /// Milliseconds since 1970, held within 0 … year 9999 (a date from a peer's answer never traps).
    static func stamp(of date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard milliseconds.isFinite else { return 0 }
        return Int64(min(max(0, milliseconds), 253_402_300_799_000))
    }

    /// A new report's name: a stamp (milliseconds since 1970), zero-padded, and a random UUID.
    static func newName(stamp milliseconds: Int64) -> String {
        let padded = String(repeating: "0", count: max(0, 15 - String(milliseconds).count)) + String(milliseconds)
        return "\(padded)-\(UUID().uuidString.lowercased())\(suffix)"
    }

    func url(of name: String) -> URL { directory.appendingPathComponent(name, isDirectory: false) }

    /// Writes `entry` as `name`, atomically and durably.
    func write(_ entry: ReportQueueEntry, as name: String) throws {
        let data = try ReportQueueEntry.encoder.encode(entry)
        let temporary = url(of: Self.temporaryPrefix + UUID().uuidString.lowercased())
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            try createDirectory()
        }
        try writeDurably(data, to: temporary)
        guard rename(temporary.path, url(of: name).path) == 0 else {
            let reason = Self.systemError("cannot rename \(temporary.lastPathComponent) into place")
            unlink(temporary.path)
            throw ReportQueueError(path: url(of: name).path, reason: reason)
        }
        try synchronizeDirectory()
    }

    /// Reads the entry `name`: nil if it is gone; throws if it is not a report.
    func read(_ name: String) throws -> ReportQueueEntry? {
        let data: Data
        do {
            data = try Data(contentsOf: url(of: name))
        } catch {
            if !FileManager.default.fileExists(atPath: url(of: name).path) { return nil }
            throw ReportQueueError(path: url(of: name).path, reason: "cannot be read (\(error.localizedDescription))")
        }
        struct Format: Decodable { var format: String }
        do {
            let format = try ReportQueueEntry.decoder.decode(Format.self, from: data).format
            guard format == ReportQueueEntry.currentFormat else {
                throw ReportQueueError(path: url(of: name).path, reason: "has format \"\(format)\", not \(ReportQueueEntry.currentFormat)")
            }
            return try ReportQueueEntry.decoder.decode(ReportQueueEntry.self, from: data)
        } catch let error as ReportQueueError {
            throw error
        } catch {
            throw ReportQueueError(path: url(of: name).path, reason: "is not a report this queue wrote (\(Self.describe(error)))")
        }
    }

    /// Removes the entry `name` (once delivered or refused for good). The directory is not
    /// flushed: a removal lost to a power cut only sends the report again, and the server
    /// answers it as a duplicate.
    func remove(_ name: String) throws {
        guard unlink(url(of: name).path) == 0 || errno == ENOENT else {
            throw ReportQueueError(path: url(of: name).path, reason: Self.systemError("cannot remove the delivered report"))
        }
    }

    /// The names of the reports, oldest first, and the names of other files found beside them.
    func listing() throws -> (reports: [String], foreign: [String]) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ReportQueueError(path: directory.path, reason: "cannot be listed (\(error.localizedDescription))")
        }
        var reports: [String] = []
        var foreign: [String] = []
        for name in names where name != Self.quarantineName && !name.hasPrefix(Self.temporaryPrefix) {
            if name.hasSuffix(Self.suffix) && !name.hasPrefix(".") { reports.append(name) } else { foreign.append(name) }
        }
        return (reports.sorted(), foreign.sorted())
    }

    /// Temporary files left by a process that died while writing (their reports were never saved).
    func leftoverTemporaryFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(Self.temporaryPrefix) }.sorted()
    }

    /// Deletes a temporary file.
    func removeTemporary(_ name: String) {
        unlink(url(of: name).path)
    }

    /// Moves `name` to `quarantine/`, under a name that does not overwrite an earlier one;
    /// returns the new path.
    @discardableResult
    func quarantine(_ name: String) throws -> String {
        let folder = directory.appendingPathComponent(Self.quarantineName, isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("\(UUID().uuidString.lowercased())-\(name)", isDirectory: false)
        guard rename(url(of: name).path, target.path) == 0 else {
            throw ReportQueueError(path: url(of: name).path, reason: Self.systemError("cannot be moved to \(Self.quarantineName)/"))
        }
        try synchronizeDirectory()
        return target.path
    }

    private func writeDurably(_ data: Data, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw ReportQueueError(path: file.path, reason: Self.systemError("cannot be created")) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Self.systemError("cannot be written")
                    return
                }
                offset += written
            }
        }
        if failure == nil, synchronous, fsync(descriptor) != 0 { failure = Self.systemError("cannot be flushed to disk") }
        close(descriptor)
        if let failure {
            unlink(file.path)
            throw ReportQueueError(path: file.path, reason: failure)
        }
    }

    private func synchronizeDirectory() throws {
        guard synchronous else { return }
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { throw ReportQueueError(path: directory.path, reason: Self.systemError("cannot be opened")) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ReportQueueError(path: directory.path, reason: Self.systemError("cannot be flushed to disk")) }
    }

    static func systemError(_ what: String) -> String {
        "\(what): \(String(cString: strerror(errno)))"
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted: return "not JSON"
        default: return "\(error)"
        }
    }
}
