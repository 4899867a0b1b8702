import ActionableCore
import ActionableLint

/// Loads a rule example (files with `↓` markers) and lints it as one catalog.
struct ExampleRunner {
    struct Outcome {
        var result: LintResult
        var markers: Set<SourceLocation>
    }

    static func run(_ example: Example, configuration: LintConfiguration = LintConfiguration()) -> Outcome {
        let (files, markers) = load(example)
        return Outcome(result: Linter(configuration: configuration).lint(files), markers: markers)
    }

    /// The example's files with their markers removed (each named `prefix` + its name), and where
    /// the markers were.
    static func load(_ example: Example, prefix: String = "") -> (files: [CategoryFile], markers: Set<SourceLocation>) {
        var markers = Set<SourceLocation>()
        var files: [CategoryFile] = []
        let loader = CatalogLoader()
        for (name, text) in example.files {
            let name = prefix + name
            var clean = ""
            var line = 1
            var column = 1
            for scalar in text.unicodeScalars {
                if Character(scalar) == Example.marker {
                    markers.insert(SourceLocation(file: name, line: line, column: column))
                    continue
                }
                clean.unicodeScalars.append(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            files.append(loader.loadFile(path: name, contents: Array(clean.utf8)))
        }
        return (files, markers)
    }
}
