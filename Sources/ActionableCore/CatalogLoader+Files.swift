import Foundation

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
            guard let enumerator = manager.enumerator(atPath: path) else {
                throw .unreadable(path, reason: "the directory cannot be listed")
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    enumerator.skipDescendants()
                    continue
                }
                guard Self.fileExtensions.contains((name as NSString).pathExtension.lowercased()) else { continue }
                let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
                var isDir: ObjCBool = false
                if manager.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue { found.append(full) }
            }
            files.append(contentsOf: found.sorted())
        }
        return files
    }

    /// Reads at most `maximumFileSize + 1` bytes, so a huge (or endless) file costs bounded memory.
    func readBounded(_ path: String) -> Result<[UInt8], Diagnostic> {
        let location = SourceLocation(file: path, line: 1, column: 1)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(Diagnostic(location: location, severity: .error, rule: "syntax",
                message: "the file cannot be opened; check that it exists and is readable"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limits.maximumFileSize + 1) ?? Data()
            guard data.count <= limits.maximumFileSize else {
                return .failure(Diagnostic(location: location, severity: .error, rule: "syntax",
                    message: "the file is larger than \(limits.maximumFileSize) bytes, the limit for a category file; "
                        + "split it, one category per file"))
            }
            return .success([UInt8](data))
        } catch {
            return .failure(Diagnostic(location: location, severity: .error, rule: "syntax",
                message: "the file cannot be read (\(error.localizedDescription))"))
        }
    }
}
