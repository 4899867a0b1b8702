import ActionableCore
import ActionableLint
import FuzzSupport

// A category file's bytes, read as YAML (and, from a second path, as JSON), then linted and
// compared with a fixed category in both directions: the loader, every rule and every
// compatibility rule of `actionable diff` must turn any input into diagnostics, never a crash
// or a hang.

/// A category with every kind of part the diff compares.
let baseline = CatalogLoader().loadFile(
    path: "baseline.yaml",
    contents: Array(
        """
        category: invite
        options: [customDismissAction]
        payload: { inviteId: { type: string, required: true, maxLength: 64 }, seats: integer }
        actions:
          - { id: accept, title: { en: Accept, de: Annehmen }, authenticationRequired: true }
          - { id: maybe, title: Maybe, icon: { system: clock }, retired: true }
          - { id: comment, title: Comment, activation: foreground, input: { maxLength: 500 } }
        contexts: { default: [accept, comment], minimal: [accept] }

        """.utf8))

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes(data, count)
    let loader = CatalogLoader()
    for path in ["fuzz.yaml", "fuzz.json"] {
        let file = loader.loadFile(path: path, contents: input)
        _ = Linter().lint([file])
        if let category = file.category { _ = Catalog([category]) }
        _ = CatalogDiff().diff(old: [baseline], new: [file])
        _ = CatalogDiff().diff(old: [file], new: [baseline])
    }
    return 0
}
