#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Finds category files under a directory with `readdir`, which returns each entry's type with
/// its name. FileManager's enumerator costs a `stat` or an attribute dictionary per entry,
/// which at 10,000 files took longer than parsing a third of them.
enum DirectoryWalker {
    /// Appends the category files under `directory` (any depth, hidden entries skipped). A
    /// directory reached twice (a symbolic link back up the tree) is walked once.
    static func collect(in directory: String, into found: inout [String]) throws(LoaderError) {
        var visited = Set<DirectoryIdentity>()
        try collect(in: directory, into: &found, visited: &visited)
    }

    private struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private static func collect(
        in directory: String, into found: inout [String], visited: inout Set<DirectoryIdentity>
    ) throws(LoaderError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            let identity = DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard visited.insert(identity).inserted else { return }
        }
        guard let stream = opendir(directory) else {
            throw .unreadable(directory, reason: String(cString: strerror(errno)))
        }
        defer { closedir(stream) }
        var subdirectories: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }  // ".", ".." and hidden entries
            let full = directory + "/" + name
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR):
                subdirectories.append(full)
            case Int32(DT_REG):
                if isCategoryFileName(name) { found.append(full) }
            case Int32(DT_LNK), Int32(DT_UNKNOWN):
                // Some file systems do not report types, and links need following: ask stat.
                var info = stat()
                guard stat(full, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    subdirectories.append(full)
                } else if info.st_mode & S_IFMT == S_IFREG, isCategoryFileName(name) {
                    found.append(full)
                }
            default:
                continue
            }
        }
        for subdirectory in subdirectories { try collect(in: subdirectory, into: &found, visited: &visited) }
    }

    static func isCategoryFileName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return CatalogLoader.fileExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
