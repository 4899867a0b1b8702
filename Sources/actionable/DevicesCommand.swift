import ActionableCore
import ActionableWire
import ArgumentParser
import Foundation

/// `actionable devices list|remove`: the device registry of a running server, as the backend
/// sees it.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List a user's devices, or remove one, on a running server (its backend API).",
        discussion: """
            actionable devices list alice --url http://127.0.0.1:8080 --backend-token "$TOKEN"
            actionable devices remove 6a3f…   (a device token)
            actionable devices register 6a3f… --user alice --environment sandbox --app-jwt-key app=SECRET   (as the app does)
            The backend token can also come from ACTIONABLE_BACKEND_TOKEN.
            """,
        subcommands: [List.self, Remove.self, Register.self]
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a user's devices, oldest registration first.")
        @Argument(help: "The user.") var user: String
        @Option(help: "table or json.") var format: Format = .table
        @OptionGroup var connection: BackendConnection

        func run() async throws {
            let list: DeviceList = try await ServerCall.json(
                .get, "/v1/devices/\(ServerCall.segment(user))", to: connection.url, token: try connection.token()
            ).answer
            switch format {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(list), as: UTF8.self))
            case .table:
                guard !list.items.isEmpty else { return print("\(user) has no devices") }
                var rows = [["TOKEN", "PLATFORM", "ENVIRONMENT", "STATE", "REGISTERED", "LAST SENT"]]
                for item in list.items {
                    rows.append([
                        item.token, item.platform, item.environment ?? "-", item.state,
                        Timestamp.iso8601(Date(timeIntervalSince1970: item.registeredAt)),
                        item.lastSentAt.map { Timestamp.iso8601(Date(timeIntervalSince1970: $0)) } ?? "never",
                    ])
                }
                let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
                for row in rows {
                    print(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a device, by its token: nothing is sent to it any more.")
        @Argument(help: "The device token (hexadecimal for iOS, the FCM registration token for Android).") var token: String
        @OptionGroup var connection: BackendConnection

        func run() async throws {
            let (status, text) = try await ServerCall.send(
                .delete, "/v1/devices/\(ServerCall.segment(token))", to: connection.url, token: try connection.token())
            guard status == 204 else { throw ServerCall.problem(status, text) }
            print("removed \(token)")
        }
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device token for a user, as the app does (POST /v1/devices with the app's JWT).")
        @Argument(help: "The device token (hexadecimal for iOS, the FCM registration token for Android).") var token: String
        @Option(help: "The user the app is signed in as.") var user: String
        @Option(help: "ios (an APNs device token) or android (an FCM registration token).") var platform = "ios"
        @Option(help: "iOS only: production (App Store, TestFlight) or sandbox (a build run from Xcode).") var environment: String?
        @Option(help: "The server.") var url = "http://127.0.0.1:8080"
        @OptionGroup var app: AppIdentity

        func validate() throws {
            guard app.appJWTKey != nil else { throw ValidationError("give --app-jwt-key: a device is registered with the app's JWT") }
            guard ["ios", "android"].contains(platform) else { throw ValidationError("--platform is ios or android") }
            if platform == "android" {
                guard environment == nil else { throw ValidationError("--environment is for iOS devices only") }
            } else if let environment, !["production", "sandbox"].contains(environment) {
                throw ValidationError("--environment is production or sandbox")
            }
        }

        func run() async throws {
            var members: [(String, JSONValue)] = [("token", .string(token))]
            if platform == "android" {
                members.append(("platform", .string("android")))
            } else {
                members.append(("environment", .string(environment ?? "production")))
            }
            let (status, item): (UInt, DeviceItem) = try await ServerCall.json(
                .post, "/v1/devices", to: url, body: JSONValue.object(members).serialized(), token: try await app.jwt(for: user))
            print(
                status == 201
                    ? "registered \(item.token) for \(user) (\(item.environment ?? item.platform))" : "\(item.token) was registered already")
        }
    }
}
