import ActionableWire
import Foundation

extension InMemoryActionStore {
    public func register(token: String, user: String, environment: APNsEnvironment, at: Date) -> DeviceRegistration {
        let before = deviceTable[token]
        let result = DeviceTable.registration(
            before: before.map { ($0.user, $0.environment.rawValue, $0.state.rawValue) }, user: user, environment: environment)
        deviceTable[token] = Device(
            token: token, user: user, environment: environment, state: .active, registeredAt: at, lastSentAt: before?.lastSentAt)
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
        return true
    }
}
