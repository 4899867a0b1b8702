import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small disk of a test's own: a tmpfs mounted on a new temporary folder (as root), which the
/// test fills to the last byte and frees again.
public final class SmallDisk: Sendable {
    /// The folder the tmpfs is mounted on.
    public let path: String
    private var filler: String { path + "/filler" }

    /// Whether a tmpfs can be mounted here (root, and mounting not refused): tried once.
    public static let mountable: Bool = {
        guard let disk = try? SmallDisk(megabytes: 1) else { return false }
        disk.remove()
        return true
    }()

    /// Mounts a tmpfs of `megabytes` on a new folder; throws when mounting is refused.
    public init(megabytes: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("small-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard mount("tmpfs", folder, "tmpfs", 0, "size=\(megabytes)m") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: folder)
            throw RawConnection.Failure("mounting a tmpfs on \(folder) was refused: \(reason)")
        }
        path = folder
    }

    /// Writes a filler file until the disk has not one byte left (ENOSPC for a single byte).
    public func fill() throws {
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw RawConnection.Failure("open \(filler): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var size = 1 << 20
        let chunk = [UInt8](repeating: 0, count: size)
        while size > 0 {
            let written = chunk.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, size) }
            if written < 0 {
                guard errno == ENOSPC else { throw RawConnection.Failure("write \(filler): \(String(cString: strerror(errno)))") }
                size /= 2
            }
        }
    }

    /// Removes the filler: the space it took is free again.
    public func free() { unlink(filler) }

    /// Unmounts the disk (lazily, should a process still hold a file on it) and removes its folder.
    public func remove() {
        umount2(path, Int32(MNT_DETACH))
        rmdir(path)
    }
}
