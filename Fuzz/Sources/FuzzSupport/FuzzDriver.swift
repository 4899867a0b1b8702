import ActionableCore
import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with `callback` as the target. SwiftPM names an executable's entry point
/// `<module>_main` and makes it `main`, so each target's `<module>_main` calls this instead of
/// relying on libFuzzer's own `main`.
public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return runDriver(&argc, &argv, callback)
}

/// The input as bytes (empty for a null pointer).
public func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let data, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: count))
}

/// The example catalog the targets check against (the repository's Categories/, loaded once).
public let exampleCatalog: Catalog = {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Categories").path
    let files = CatalogLoader().load(
        files: ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            .map { directory + "/" + $0 })
    return Catalog(files.compactMap(\.category))
}()

/// Runs `body` on a task and waits for it on this thread: the targets that call `async` APIs
/// (jwt-kit's key collection is an actor) stay synchronous, as libFuzzer's callback must be.
public func blocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}
