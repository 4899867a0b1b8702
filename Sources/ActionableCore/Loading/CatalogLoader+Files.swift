import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CatalogLoader {
    /// The extensions of category files.
    public static let fileExtensions: Set<String> = ["yaml", "yml", "json"]

    /// The category files under `paths`: directories are searched at any depth (hidden files and
    /// folders, such as `.actionable-lint.yml`, are skipped); files are taken as given. Sorted
    /// by path within each directory, so runs are reproducible.
    public func categoryFiles(in paths: [String]) throws(LoaderError) -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .notFound(path) }
            guard isDirectory.boolValue else {
                guard Self.fileExtensions.contains((path as NSString).pathExtension.lowercased()) else {
                    throw .notACategoryFile(path)
                }
                files.append(path)
                continue
            }
            var found: [String] = []
            try DirectoryWalker.collect(in: path.hasSuffix("/") ? String(path.dropLast()) : path, into: &found)
            files.append(contentsOf: found.sorted())
        }
        return files
    }

    /// Reads at most `maximumFileSize + 1` bytes, so a huge (or endless) file costs bounded memory.
    /// Plain POSIX reads into one buffer: at thousands of files, FileHandle and Data cost more
    /// than the reading itself.
    func readBounded(_ path: String) -> Result<[UInt8], Diagnostic> {
        func failure(_ message: String) -> Result<[UInt8], Diagnostic> {
            .failure(
                Diagnostic(
                    location: SourceLocation(file: path, line: 1, column: 1), severity: .error,
                    rule: "syntax", message: message))
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            return failure("the file cannot be opened (\(String(cString: strerror(errno)))); check that it is readable")
        }
        defer { close(descriptor) }
        let limit = limits.maximumFileSize
        var info = stat()
        let sizeHint = fstat(descriptor, &info) == 0 && info.st_size > 0 ? Int(info.st_size) : 4096
        var bytes = [UInt8](repeating: 0, count: min(sizeHint, limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else { break }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemRead(descriptor, base + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                return failure("the file cannot be read (\(String(cString: strerror(errno))))")
            }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else {
            return failure(
                "the file is larger than \(limit) bytes, the limit for a category file; "
                    + "split it, one category per file")
        }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }
}

/// `read(2)`, under the name each platform's module gives it.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}
