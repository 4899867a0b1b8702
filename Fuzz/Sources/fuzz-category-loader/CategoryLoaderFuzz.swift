import ActionableCore
import ActionableLint
import FuzzSupport

// A category file's bytes, read as YAML (and, from a second path, as JSON), then linted: the
// loader and every rule must turn any input into diagnostics, never a crash or a hang.

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes(data, count)
    let loader = CatalogLoader()
    for path in ["fuzz.yaml", "fuzz.json"] {
        let file = loader.loadFile(path: path, contents: input)
        _ = Linter().lint([file])
        if let category = file.category { _ = Catalog([category]) }
    }
    return 0
}
