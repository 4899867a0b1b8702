import NIOSSL

extension ActionableService {
    /// The server side of TLS from PEM files, with a message naming the file that is wrong.
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
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }
}
