/// Which APNs service a device's token belongs to: builds from the App Store or TestFlight use
/// `production`, builds run from Xcode use `sandbox`. A token of one is refused by the other
/// (`BadDeviceToken`), so the server keeps each device's environment beside its token.
public enum APNsEnvironment: String, Hashable, Sendable, CaseIterable, Codable {
    /// App Store and TestFlight builds.
    case production
    /// Builds run from Xcode (the development entitlement).
    case sandbox
}
