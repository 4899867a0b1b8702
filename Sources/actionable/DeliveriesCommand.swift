import ActionableCore
import ActionableWire
import ArgumentParser
import Foundation

/// `actionable deliveries list|retry`: the operators' view of deliveries from a terminal,
/// through the server's admin API.
struct DeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "List and retry deliveries of a running server (its admin API).",
        discussion: """
            actionable deliveries list --state dead --url https://actionable.internal --admin-token "$TOKEN"
            actionable deliveries retry 0193a… --url …        (one response, by id)
            actionable deliveries retry --state dead --category invite --url …   (every match)
            The admin token can also come from ACTIONABLE_ADMIN_TOKEN.
            """,
        subcommands: [List.self, Retry.self]
    )

    /// Where the server is and how to sign in, shared by the subcommands.
    struct Connection: ParsableArguments {
        @Option(help: "The server.") var url = "http://127.0.0.1:8080"
        @Option(name: .customLong("admin-token"), help: "The server's --admin-token (default: $ACTIONABLE_ADMIN_TOKEN).")
        var adminToken: String?

        func token() throws -> String {
            guard let token = adminToken ?? ProcessInfo.processInfo.environment["ACTIONABLE_ADMIN_TOKEN"], !token.isEmpty else {
                throw ValidationError("give --admin-token (or ACTIONABLE_ADMIN_TOKEN): the server's admin API needs it")
            }
            return token
        }
    }

    /// The filters of both subcommands.
    struct Filters: ParsableArguments {
        @Option(help: "pending, delivered, dead or held (accepted, no endpoint takes it yet).") var state: String?
        @Option(help: "A category id.") var category: String?
        @Option(help: "Received at or after: Unix seconds or ISO 8601 (2026-11-23T08:00:00Z).") var since: String?
        @Option(help: "Received before: Unix seconds or ISO 8601.") var until: String?

        func validate() throws {
            if let state, !["pending", "delivered", "dead", "held"].contains(state) {
                throw ValidationError("--state must be pending, delivered, dead or held")
            }
        }

        var query: [(String, String)] {
            [("state", state), ("category", category), ("since", since), ("until", until)].compactMap { name, value in
                value.map { (name, $0) }
            }
        }
    }

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List deliveries, newest first.")
        @OptionGroup var connection: Connection
        @OptionGroup var filters: Filters
        @Option(help: "Items per page (1–500).") var limit = 50
        @Option(help: "Start after this cursor (nextCursor of an earlier page).") var cursor: String?
        @Flag(help: "Follow every page to the end.") var all = false
        @Option(help: "table or json.") var format: Format = .table

        func run() async throws {
            let token = try connection.token()
            var items: [ListedResponse] = []
            var next = cursor
            repeat {
                var query = filters.query + [("limit", String(limit))]
                if let next { query.append(("cursor", next)) }
                let page: ResponsePage = try await DeliveriesCommand.call(
                    .get, "/v1/deliveries?" + DeliveriesCommand.encode(query), connection, token)
                items += page.items
                next = page.nextCursor
            } while all && next != nil
            switch format {
            case .json:
                print(try DeliveriesCommand.json(ResponsePage(items: items, nextCursor: next)))
            case .table:
                print(DeliveriesCommand.table(items))
                if let next { print("more: --cursor \(next)") }
            }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue one response again (by id), or every response the filters match.")
        @Argument(help: "A response id; without it, the filters choose.") var id: String?
        @OptionGroup var connection: Connection
        @OptionGroup var filters: Filters

        func validate() throws {
            if id != nil && !filters.query.isEmpty { throw ValidationError("give a response id or filters, not both") }
            if id == nil && filters.query.isEmpty {
                throw ValidationError("give a response id, or filters such as --state dead (to retry everything, say --state dead explicitly)")
            }
        }

        func run() async throws {
            let token = try connection.token()
            if let id {
                let _: Requeued = try await DeliveriesCommand.call(
                    .post, "/v1/deliveries/\(ServerCall.segment(id))/retry", connection, token, body: "{}")
                print("queued \(id)")
            } else {
                let body = JSONValue.object(filters.query.map { ($0.0, JSONValue.string($0.1)) }).serialized()
                let answer: RequeuedCount = try await DeliveriesCommand.call(.post, "/v1/deliveries/retry", connection, token, body: body)
                print("queued \(answer.queued)")
            }
        }
    }

    /// Calls the admin API and reads its answer as `Answer`; a problem answer is printed and
    /// exits 1.
    static func call<Answer: Decodable>(
        _ method: ServerCall.Method, _ path: String, _ connection: Connection, _ token: String, body: String? = nil
    ) async throws -> Answer {
        try await ServerCall.json(method, path, to: connection.url, body: body, token: token).answer
    }

    /// `page` as one line of JSON, as the server wrote it.
    static func json(_ page: ResponsePage) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(page), as: UTF8.self)
    }

    static func encode(_ query: [(String, String)]) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+:")
        return query.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(separator: "&")
    }

    /// The items as aligned columns.
    static func table(_ items: [ListedResponse]) -> String {
        var rows = [["ID", "STATE", "CATEGORY.ACTION", "USER", "ATTEMPTS", "RECEIVED", "LAST ERROR"]]
        for item in items {
            let error = item.lastError ?? ""
            rows.append([
                item.id, item.state, "\(item.category).\(item.action)", item.user, String(item.attempts),
                Timestamp.iso8601(Date(timeIntervalSince1970: item.receivedAt)),
                error.count > 60 ? String(error.prefix(59)) + "…" : error,
            ])
        }
        if items.isEmpty { return "no deliveries match" }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
