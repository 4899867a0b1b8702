import Dispatch
import Foundation
import Synchronization

/// Splits `0..<count` into contiguous chunks processed on all cores, and joins the chunks'
/// results in order. Used by the loader and the linter, whose per-file work is independent.
public enum ParallelChunks {
    /// `transform` applied to each chunk in parallel; the results concatenated in chunk order.
    /// With `chunkSize` 1 every element is its own chunk (for a few large tasks).
    public static func flatMap<Element: Sendable>(
        count: Int, chunkSize: Int? = nil, _ transform: @Sendable (Range<Int>) -> [Element]
    ) -> [Element] {
        guard count > 1 else { return transform(0..<count) }
        // Several chunks per core, so that a core finishing early takes more work.
        let chunkCount =
            chunkSize.map { (count + $0 - 1) / $0 }
            ?? min(count, ProcessInfo.processInfo.activeProcessorCount * 8)
        let results = Mutex<[[Element]]>(Array(repeating: [], count: chunkCount))
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let range = count * chunk / chunkCount..<count * (chunk + 1) / chunkCount
            let part = transform(range)
            results.withLock { $0[chunk] = part }
        }
        return results.withLock { chunks in
            var joined: [Element] = []
            joined.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
            for chunk in chunks { joined += chunk }
            return joined
        }
    }
}
