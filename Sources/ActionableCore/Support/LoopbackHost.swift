/// Whether a host names this machine only: the test for settings whose safe default differs on
/// loopback (the development token key, PostgreSQL's certificate check).
public enum LoopbackHost {
    /// `localhost`, an address in `127.0.0.0/8`, or `::1` (with or without brackets).
    public static func contains(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
