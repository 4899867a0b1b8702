public import Foundation

/// Reads a pipe with read(2), again when a signal interrupts the call (EINTR).
///
/// Foundation's `FileHandle.availableData` stops the whole process on EINTR instead, and the
/// test process gets signals all the time: every child process that ends sends SIGCHLD. With
/// the machine loaded, one landed during a read and ended the suite.
public enum PipeReading {
    /// The next bytes the pipe holds (waiting for some), or nil at its end (or on an error).
    public static func chunk(_ descriptor: Int32, upTo count: Int = 65_536) -> Data? {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
            if read > 0 { return Data(buffer[0..<read]) }
            if read < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Everything the pipe holds until its writers close it.
    public static func toEnd(_ descriptor: Int32) -> Data {
        var data = Data()
        while let chunk = chunk(descriptor) { data.append(chunk) }
        return data
    }
}
