public import ActionableWire
public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ActionReporter {
    /// The APNs environment a device token belongs to: `sandbox` for a build run from Xcode,
    /// `production` for TestFlight and the App Store (named here, so an app needs no other import).
    public typealias APNsEnvironment = ActionableWire.APNsEnvironment

    /// Registers this device's push token for the app's user (`POST /v1/devices`, with the app's
    /// own token from ``Options/bearerToken``, whose `sub` names the user), so the server can
    /// send to it. Call it from `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`,
    /// which iOS calls on every launch: registering a known token again renews it (a `410` from
    /// APNs older than the renewal then leaves it registered), and a new token — iOS hands one
    /// after a restore or reinstall — is registered in its place.
    ///
    /// ```swift
    /// func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
    ///     Task {
    ///         #if DEBUG
    ///         try? await reporter.registerDevice(token: deviceToken, environment: .sandbox)   // run from Xcode
    ///         #else
    ///         try? await reporter.registerDevice(token: deviceToken, environment: .production)
    ///         #endif
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: `true` when the server registered the token now (new, or active again after
    ///   APNs unregistered it), `false` when it knew it already.
    /// - Throws: ``ServerProblem`` for an error answer, or the network error; the next launch
    ///   registers it again.
    @discardableResult
    public func registerDevice(token deviceToken: Data, environment: APNsEnvironment) async throws -> Bool {
        var request = URLRequest(url: serverURL("v1/devices"), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(
            DeviceRegistrationRequest(token: Self.hex(deviceToken), environment: environment.rawValue))
        if let token = try await currentBearerToken() { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let answer = try await HTTPExchange.send(request, on: urlSession)
        guard [200, 201].contains(answer.status), (try? JSONDecoder().decode(DeviceItem.self, from: answer.body)) != nil else {
            throw ServerProblem(status: answer.status, body: answer.body)
        }
        return answer.status == 201
    }

    /// The device token as the server takes it: lowercase hexadecimal, two digits a byte.
    static func hex(_ token: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(token.count * 2)
        for byte in token {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
