import ActionableStore
import ActionableWire
import Foundation
import Hummingbird

/// The device registry over HTTP, behind ``BackendOrAppAuthenticator``:
///
/// - `POST /v1/devices` (the app, its JWT naming the user): registers the device token — an iOS
///   one (hexadecimal, with its APNs environment) or an Android one (`"platform": "android"`, an
///   FCM registration token); 201 when new (or revived after APNs or FCM unregistered it), 200
///   when known.
/// - `DELETE /v1/devices/{token}` (the app, for its own user's device, or the backend): 204;
///   404 when there is no such device of the caller's user (or the segment is no token at all).
/// - `GET /v1/devices/{user}` (the backend): the user's devices.
struct DevicesController: Sendable {
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any DeviceRegistry {
        get throws(StorageNotReady) { try storage.store() }
    }
    let settings: ServerSettings

    /// The shortest and longest device tokens taken, in hexadecimal digits (Apple's are 64
    /// today and documented as variable).
    static let tokenLengths = 16...200

    private var reader: JSONRequestReader { JSONRequestReader(maximumBodySize: settings.maximumBodySize, what: "a device registration") }

    func routes(authenticator: BackendOrAppAuthenticator) -> RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.add(middleware: authenticator)
        routes.post("/v1/devices") { request, context in try await register(request, context: context) }
        routes.delete("/v1/devices/:id") { _, context in
            // A segment that is not a device token names no device: 404, as for an unknown one.
            let segment = context.parameters.get("id") ?? ""
            let candidates = Self.tokens(named: segment)
            guard !candidates.isEmpty else {
                throw Problem(.notFound, "no device of this user has that token")
            }
            let user: String?
            switch context.identity {
            case .appUser(let own): user = own
            default: user = nil  // the backend removes any user's device
            }
            let removed = try await settings.storage(context, "the device registry cannot be reached") {
                for token in candidates where try await store.removeDevice(token: token, user: user) { return true }
                return false
            }
            guard removed else { throw Problem(.notFound, "no device \(segment) of this user is registered") }
            return Response(status: .noContent)
        }
        routes.get("/v1/devices/:id") { _, context in
            guard context.identity == .backend else {
                throw Problem(.backendOnly, "only the backend lists a user's devices, with its --backend-token")
            }
            let user = context.parameters.get("id") ?? ""  // the same path as DELETE's token: here the user
            try BadgeController.check(id: user, at: "/user")
            let devices = try await settings.storage(context, "the device registry cannot be reached") {
                try await store.devices(of: user)
            }
            return try ResponseBodies.response(DeviceList(items: devices.map(DeviceItem.init)))
        }
        return routes
    }

    private func register(_ request: Request, context: ActionableRequestContext) async throws -> Response {
        guard case .appUser(let user) = context.identity else {
            throw Problem(.appOnly, "a device is registered by the app, with its JWT (whose sub is the user), so it cannot be given to another user")
        }
        let body = try await reader.decode(DeviceRegistrationRequest.self, from: request)
        let (token, platform, environment) = try Self.device(body)
        let now = Date()
        let result = try await settings.storage(context, "the device registry cannot be reached") {
            try await store.register(
                token: token, user: user, platform: platform, environment: environment, at: now, limits: settings.deviceLimits)
        }
        if case .throttled(let wait) = result {
            throw Problem(
                .tooManyDevices,
                "this user registered \(settings.deviceLimits.registrationsPerHour) devices within the last hour; nothing was stored, "
                    + "try again in \(wait) seconds",
                headers: [.retryAfter: String(wait)])
        }
        // The device as stored (a known one keeps its last send).
        let stored = try? await store.devices(of: user).first { $0.token == token }
        let item =
            stored.map(DeviceItem.init)
            ?? DeviceItem(
                token: token, platform: platform.rawValue, environment: platform == .ios ? environment.rawValue : nil,
                state: DeviceState.active.rawValue,
                registeredAt: now.timeIntervalSince1970, lastSentAt: nil)
        return try ResponseBodies.response(item, status: result == .known ? .ok : .created)
    }

    /// The token, platform and environment a registration names, or a 400 naming what is wrong.
    static func device(_ body: DeviceRegistrationRequest) throws -> (String, DevicePlatform, APNsEnvironment) {
        guard let platform = DevicePlatform(rawValue: body.platform ?? DevicePlatform.ios.rawValue) else {
            throw Problem(
                .invalidRequest, "\"platform\" is ios (the default) or android", errors: [("/platform", "must be ios or android")])
        }
        switch platform {
        case .ios:
            let token = try Self.token(body.token, at: "/token")
            guard let environment = body.environment.flatMap(APNsEnvironment.init(rawValue:)) else {
                throw Problem(
                    .invalidRequest, "\"environment\" is production (App Store and TestFlight builds) or sandbox (builds run from Xcode)",
                    errors: [("/environment", "must be production or sandbox")])
            }
            return (token, .ios, environment)
        case .android:
            guard DevicePlatform.isAndroidToken(body.token) else {
                throw Problem(
                    .invalidRequest,
                    "an Android device's token is the FCM registration token onNewToken handed the app: 1 to \(DevicePlatform.maximumAndroidTokenSize) bytes of letters, digits, '-', '_', ':' and '.'",
                    errors: [("/token", "not an FCM registration token")])
            }
            guard body.environment == nil else {
                throw Problem(
                    .invalidRequest, "an Android device has no APNs environment: leave \"environment\" out",
                    errors: [("/environment", "only for iOS devices")])
            }
            // Kept as FCM wrote it: its tokens are case-sensitive.
            return (body.token, .android, .production)
        }
    }

    /// The stored tokens a path segment may name, in the order to try them: an FCM token exactly
    /// as written (FCM's tokens are case-sensitive, and one may happen to be all hexadecimal
    /// digits), then an APNs token as stored (lowercased). Empty: it is neither.
    static func tokens(named segment: String) -> [String] {
        var tokens: [String] = []
        if DevicePlatform.isAndroidToken(segment) { tokens.append(segment) }
        if let apns = try? token(segment, at: "/token"), !tokens.contains(apns) { tokens.append(apns) }
        return tokens
    }

    /// A device token, lowercased, or a 400 naming `pointer`.
    static func token(_ text: String, at pointer: String) throws -> String {
        guard tokenLengths.contains(text.count), text.count.isMultiple(of: 2), text.allSatisfy(\.isHexDigit) else {
            throw Problem(
                .invalidRequest,
                "a device token is the hexadecimal text of the bytes iOS hands the app (\(tokenLengths.lowerBound)–\(tokenLengths.upperBound) digits)",
                errors: [(pointer, "not a hexadecimal device token")])
        }
        return text.lowercased()
    }
}

extension DeviceItem {
    /// The item of `device`.
    init(_ device: Device) {
        self.init(
            token: device.token, platform: device.platform.rawValue,
            environment: device.platform == .ios ? device.environment.rawValue : nil, state: device.state.rawValue,
            registeredAt: device.registeredAt.timeIntervalSince1970, lastSentAt: device.lastSentAt?.timeIntervalSince1970)
    }
}
