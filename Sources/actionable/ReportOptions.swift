import ActionableLint
public import ArgumentParser

extension Reporter: ExpressibleByArgument {}

/// `--format` and `--strict`, shared by `lint` and `diff`.
struct ReportOptions: ParsableArguments {
    @Option(help: "Output format: \(Reporter.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Reporter = .xcode

    @Flag(help: "Fail on warnings too.")
    var strict = false
}
