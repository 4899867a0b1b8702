import ArgumentParser
import Foundation

/// Where the server is and the backend's token, for the commands that act as the backend
/// (`send`, `devices`).
struct BackendConnection: ParsableArguments {
    @Option(help: "The server.") var url = "http://127.0.0.1:8080"
    @Option(name: .customLong("backend-token"), help: "The server's --backend-token (default: $ACTIONABLE_BACKEND_TOKEN).")
    var backendToken: String?

    func token() throws -> String {
        guard let token = backendToken ?? ProcessInfo.processInfo.environment["ACTIONABLE_BACKEND_TOKEN"], !token.isEmpty else {
            throw ValidationError("give --backend-token (or ACTIONABLE_BACKEND_TOKEN): the server's backend endpoints need it")
        }
        return token
    }
}
