import ActionableTokens
import ArgumentParser

/// The app's own bearer JWT, minted here from the server's `--app-jwt-key` for commands that act
/// as the app (`respond`, `devices register`): what an app gets from its own sign-in.
struct AppIdentity: ParsableArguments {
    @Option(
        name: .customLong("app-jwt-key"),
        help: "The server's --app-jwt-key ID=SECRET: sign the app's JWT here (for a server that requires one).")
    var appJWTKey: String?
    @Option(name: .customLong("app-jwt-audience"), help: "The server's --app-jwt-audience.") var audience = "actionable"

    /// The JWT naming `user`, or `nil` without a key.
    func jwt(for user: String) async throws -> String? {
        guard let appJWTKey else { return nil }
        let key: ActionTokenKey
        do {
            key = try ActionTokenKey(parsing: appJWTKey)
        } catch {
            throw ValidationError("--app-jwt-key: \(error)")
        }
        return try await AppTokens(keys: [key], audience: audience).mint(user: user, keyID: key.id)
    }
}

extension Optional {
    /// `transform` of the value, awaited, when there is one.
    func asyncFlatMap<T>(_ transform: (Wrapped) async throws -> T?) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
