import ActionableAPNsTesting
import Foundation
import Logging

/// The files a stand-in command reads (a certificate, a key) and writes (what it made).
enum StandInFiles {
    /// The text of `path`, or a refusal that names it.
    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw refuse("\(path) cannot be read") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The stand-in's certificate: read from `certificate` and `key` when given, or made and
    /// written to `folder/certificate.pem` (for the sender to trust), after `folder` is made.
    static func certificate(_ certificate: String?, key: String?, folder: URL, logger: Logger) throws -> StandInCertificate {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let certificate, let key {
            return StandInCertificate(certificatePEM: try read(certificate), privateKeyPEM: try read(key))
        }
        let made = try StandInCertificate()
        try write(Data(made.certificatePEM.utf8), to: folder.appendingPathComponent("certificate.pem"), logger: logger)
        return made
    }

    /// Writes `data` to `url` (readable by its owner only when `secret`), and logs it.
    static func write(_ data: Data, to url: URL, secret: Bool = false, logger: Logger) throws {
        try data.write(to: url, options: .atomic)
        if secret { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path) }
        logger.info("wrote \(url.path)")
    }
}
