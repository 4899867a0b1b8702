import NIOSSL

extension ActionableService {
    /// The server side of TLS (1.2 and 1.3) from PEM files, with a message naming the file that is wrong.
    static func tlsConfiguration(_ files: ActionableConfiguration.TLSFiles) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificate)
        } catch {
            throw ConfigurationError("TLS certificate \(files.certificate) is not a readable PEM certificate chain: \(error)")
        }
        guard !chain.isEmpty else { throw ConfigurationError("TLS certificate \(files.certificate) holds no certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: files.key, format: .pem)
        } catch {
            throw ConfigurationError("TLS key \(files.key) is not a readable PEM private key: \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // TLS 1.0 and 1.1 are deprecated (RFC 8996): 1.2 and 1.3 only.
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
