import ActionableCore
import ActionableLint
import Benchmark
import CategoryGenerator
import Dispatch
import Foundation
import Yams

/// Linting N generated files (load + every rule + catalog-wide rules), side by side with the
/// floor: reading and parsing the same files with Yams alone.
let benchmarks: @Sendable () -> Void = {
    let sizes = [100, 1_000, 10_000]
    for size in sizes {
        let directory = NSTemporaryDirectory() + "actionable-lint-bench-\(size)"
        let paths = (try? CategoryGenerator.write(count: size, to: directory)) ?? []
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(10),
            maxIterations: size >= 10_000 ? 8 : 30
        )

        Benchmark("actionable lint, \(size) files", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try Linter().lint(paths: [directory]))
            }
        }

        Benchmark("floor: read + Yams compose (default resolver), 1 core, \(size) files",
            configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                for path in paths {
                    let text = try String(contentsOfFile: path, encoding: .utf8)
                    blackHole(try Yams.compose(yaml: text))
                }
            }
        }

        Benchmark("floor: read + Yams compose (basic resolver, utf8), all cores, \(size) files",
            configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let chunks = ProcessInfo.processInfo.activeProcessorCount * 8
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for path in paths[paths.count * chunk / chunks..<paths.count * (chunk + 1) / chunks] {
                        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                        blackHole(try? Yams.compose(yaml: text, .basic, .default, .utf8))
                    }
                }
            }
        }
    }
}
