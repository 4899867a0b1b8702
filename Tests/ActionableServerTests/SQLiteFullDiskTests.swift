import ActionableTestSupport
import ActionableTokens
import Foundation
import GRDB
import Testing

/// SQLite on a full disk under `serve`, while clients tap (`TapLoad`: the same tap sent again on
/// any answer but 2xx): a tmpfs of 24 MiB holds the database and is filled to the last byte.
///
/// What must hold: taps are answered 503 with `Retry-After` while the disk is full, never a 500
/// and never a hang; `serve` does not exit; once the space is freed taps are accepted again without
/// a restart; every tap answered 2xx reaches the endpoint; and `pragma integrity_check` says ok.
@Suite(.serialized, .enabled(if: SmallDisk.mountable, "needs to mount a tmpfs (runs as root in scripts/test)"))
struct SQLiteFullDiskTests {
    @Test(.timeLimit(.minutes(3)))
    func aFullDiskIsA503AndNothingAcceptedIsLost() async throws {
        let disk = try SmallDisk(megabytes: 24)
        let upstream = try HostileUpstream { _, _ in .answer(204) }
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer {
            upstream.stop()
            disk.remove()
            try? FileManager.default.removeItem(at: directory)
        }
        let database = disk.path + "/actionable.sqlite"
        let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
        let port = try ServeProcessTests.freePort()
        let instance = try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--storage", "sqlite:" + database, "--forward", "invite.*=http://127.0.0.1:\(upstream.port)/rsvp",
                "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            ])
        do {
            let load = TapLoad(ports: [port], tokens: try await ActionTokens(keys: [key]))
            let clients = Task { await load.run(clients: 4) }
            try await load.accepted(40, after: 0)
            try await upstream.arrived(20)

            try disk.fill()
            let before = load.answers.count
            try await within("a tap refused while the disk is full", limit: .seconds(60)) {
                while !load.answers.dropFirst(before).contains(where: { $0.status == 503 }) {
                    try await Task.sleep(for: .milliseconds(50))  // polling the load's own answers
                }
            }
            // Full for a while under load (each client answered ten times more, a second or more),
            // with the workers failing to record what they deliver meanwhile.
            let refused = load.answers.count
            try await within("clients answered while the disk is full", limit: .seconds(60)) {
                while load.answers.count < refused + 40 { try await Task.sleep(for: .milliseconds(50)) }
            }
            let whileFull = load.answers.dropFirst(before)
            print("while full: \(whileFull.filter { $0.status == 503 }.count) of \(whileFull.count) answered 503")
            disk.free()
            // Taps accepted again, with nothing restarted.
            try await load.accepted(40, after: load.accepted.count, limit: .seconds(30))
            load.stop()
            await clients.value

            load.expectEveryAnswerIsA2xxOrA503WithinTenSeconds()
            try await load.everyAcceptedTapArrived(at: upstream)
            #expect(instance.terminationReason == nil, "serve exited")
        } catch {
            print("serve printed (last 6,000 characters):\n\(instance.log.suffix(6000))")
            instance.signal(SIGKILL)
            throw error
        }
        instance.signal()
        #expect(await instance.exit() == 0)
        let check = try DatabaseQueue(path: database)
        #expect(try await check.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
    }
}
