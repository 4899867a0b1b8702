public import ActionableWire
public import Foundation

extension InMemoryActionStore {
    /// Registers an iOS device, without limits.
    public func register(token: String, user: String, environment: APNsEnvironment, at: Date) -> DeviceRegistration {
        register(token: token, user: user, platform: .ios, environment: environment, at: at, limits: .none)
    }

    public func register(
        token: String, user: String, platform: DevicePlatform, environment: APNsEnvironment, at: Date, limits: DeviceLimits
    ) -> DeviceRegistration {
        let before = deviceTable[token]
        let row = before.map {
            DeviceTable.Before(user: $0.user, platform: $0.platform.rawValue, environment: $0.environment.rawValue, state: $0.state.rawValue)
        }
        if limits.registrationsPerHour > 0, DeviceTable.addsDevice(before: row, user: user) {
            let recent = deviceTable.values.filter {
                $0.user == user && $0.token != token && $0.registeredAt > at.addingTimeInterval(-DeviceLimits.window)
            }
            if let wait = limits.wait(recent: recent.count, oldest: recent.map(\.registeredAt).min(), now: at) {
                return .throttled(retryAfter: wait)
            }
        }
        let result = DeviceTable.registration(before: row, user: user, platform: platform, environment: environment)
        deviceTable[token] = Device(
            token: token, user: user, platform: platform, environment: environment, state: .active, registeredAt: at, lastSentAt: before?.lastSentAt)
        if limits.maximumActive > 0 {
            let active = deviceTable.values.filter { $0.user == user && $0.state == .active }
                .sorted { ($0.registeredAt, $0.token) > ($1.registeredAt, $1.token) }
            for device in active.dropFirst(limits.maximumActive) {
                deviceTable[device.token]?.state = .unregistered
                deviceUnregisteredAt[device.token] = at
            }
        }
        return result
    }

    public func removeDevice(token: String, user: String?) -> Bool {
        guard let device = deviceTable[token], user == nil || device.user == user else { return false }
        deviceTable[token] = nil
        return true
    }

    public func devices(of user: String) -> [Device] {
        deviceTable.values.filter { $0.user == user }.sorted { ($0.registeredAt, $0.token) < ($1.registeredAt, $1.token) }
    }

    public func markUnregistered(token: String, since: Date?, at: Date) -> Bool {
        guard var device = deviceTable[token], device.state == .active, device.registeredAt <= (since ?? .distantFuture) else {
            return false
        }
        device.state = .unregistered
        deviceTable[token] = device
        deviceUnregisteredAt[token] = at
        return true
    }
}
