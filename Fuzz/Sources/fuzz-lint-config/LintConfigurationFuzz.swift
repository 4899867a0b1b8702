import ActionableLint
import FuzzSupport

// The lint configuration file (.actionable-lint.yml): any text is a configuration or a
// ConfigurationError naming the place, never a crash.

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: bytes(data, count), as: UTF8.self)
    if let configuration = try? LintConfiguration(yaml: text, path: ".actionable-lint.yml") {
        _ = configuration.severity(of: "unknown_key")
    }
    return 0
}
