import CYaml
import Foundation
import Yams

/// Loads category files (`.yaml`, `.yml`, `.json`) into ``CategoryFile``s and a ``Catalog``.
///
/// Every problem ends in a ``Diagnostic`` with `file:line:column`, never in a crash: files too
/// large, not UTF-8, nested too deeply, full of aliases, or not YAML at all.
///
/// ```swift
/// let loader = CatalogLoader()
/// let files = try loader.load(paths: ["Categories"])
/// let catalog = Catalog(files.compactMap(\.category))
/// ```
public struct CatalogLoader: Sendable {
    /// The bounds within which files are read.
    public var limits: LoaderLimits

    /// Creates a loader.
    public init(limits: LoaderLimits = .default) {
        self.limits = limits
    }

    /// Loads every category file under `paths`, using all cores; results keep the order of
    /// ``categoryFiles(in:)``.
    public func load(paths: [String]) throws(LoaderError) -> [CategoryFile] {
        load(files: try categoryFiles(in: paths))
    }

    /// Loads the given files, using all cores, in the order given.
    public func load(files: [String]) -> [CategoryFile] {
        ParallelChunks.flatMap(count: files.count) { range in files[range].map(loadFile(at:)) }
    }

    /// Loads one file from disk.
    public func loadFile(at path: String) -> CategoryFile {
        loadFile(at: path, reportedAs: path)
    }

    /// Loads one file from disk, naming it `name` in the result and its diagnostics (a file
    /// extracted from git to a scratch directory is reported by its place in the repository).
    public func loadFile(at path: String, reportedAs name: String) -> CategoryFile {
        switch readBounded(path) {
        case .success(let bytes): return load(path: name, contents: bytes)
        case .failure(var diagnostic):
            diagnostic.location.file = name
            return CategoryFile(path: name, category: nil, sourceMap: SourceMap(file: name), diagnostics: [diagnostic])
        }
    }

    /// Loads one file from bytes already in memory; `path` is used in diagnostics.
    public func loadFile(path: String, contents: [UInt8]) -> CategoryFile {
        load(path: path, contents: contents)
    }

    private func load<Bytes: Collection<UInt8>>(path: String, contents: Bytes) -> CategoryFile {
        func failed(_ diagnostic: Diagnostic) -> CategoryFile {
            CategoryFile(path: path, category: nil, sourceMap: SourceMap(file: path), diagnostics: [diagnostic])
        }
        guard contents.count <= limits.maximumFileSize else {
            return failed(
                Diagnostic(
                    location: .init(file: path, line: 1, column: 1), severity: .error, rule: "syntax",
                    message: "the file is larger than \(limits.maximumFileSize) bytes, the limit for a category file"))
        }
        let text: String
        switch Self.decodeUTF8(contents, path: path) {
        case .success(let decoded): text = decoded
        case .failure(let diagnostic): return failed(diagnostic)
        }
        if let diagnostic = checkAliases(text, path: path) { return failed(diagnostic) }
        let root: YAMLNode?
        do throws(Diagnostic) {
            root = try YAMLComposer(path: path, text: text).compose()
        } catch {
            return failed(error)
        }
        guard let root else {
            return failed(
                Diagnostic(
                    location: .init(file: path, line: 1, column: 1), severity: .error, rule: "schema",
                    message: "the file is empty; a category file needs at least \"category: <id>\""))
        }
        var decoder = CategoryDecoder(file: path)
        let category = decoder.decode(root)
        return CategoryFile(
            path: path, category: category, sourceMap: SourceMap(file: path, text: text),
            diagnostics: decoder.reader.diagnostics, explicitContexts: decoder.explicitContexts)
    }

    /// libYAML's nesting limit is process-wide; it is set once, before the first parse, to
    /// ``LoaderLimits/nestingLimit``. libYAML then refuses deeper input while it scans, so Yams
    /// never recurses deep enough to exhaust a thread's stack.
    private static let nestingLimitConfigured: Void = {
        yaml_set_max_nest_level(Int32(LoaderLimits.nestingLimit))
    }()

    static func configureNestingLimit() { _ = nestingLimitConfigured }

    /// Text as UTF-8, or a diagnostic at the first byte that is not.
    static func decodeUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes, path: String) -> Result<String, Diagnostic> {
        if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
        var line = 1
        var column = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput: break loop
            case .error: break loop
            }
        }
        let binary = bytes.prefix(8000).contains(0)
        let message =
            binary
            ? "the file is binary, not a YAML or JSON text file"
            : "the file is not valid UTF-8 (first bad byte here); save it as UTF-8"
        return .failure(
            Diagnostic(
                location: .init(file: path, line: line, column: column), severity: .error, rule: "syntax", message: message))
    }

    /// Counts alias uses (`*name` after a space, line start or flow indicator) in files that
    /// define an anchor at all: without an anchor an alias is a parse error anyway.
    func checkAliases(_ text: String, path: String) -> Diagnostic? {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "&")) else { return nil }
        var count = 0
        var previous: UInt8 = UInt8(ascii: "\n")
        var line = 1
        var column = 0
        for byte in utf8 {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            if byte == UInt8(ascii: "*") {
                switch previous {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "["),
                    UInt8(ascii: "{"), UInt8(ascii: ","):
                    count += 1
                    if count > limits.maximumAliases {
                        return Diagnostic(
                            location: .init(file: path, line: line, column: column), severity: .error, rule: "syntax",
                            message: "more than \(limits.maximumAliases) aliases in one file; "
                                + "write the values out instead of referring to anchors")
                    }
                default: break
                }
            }
            previous = byte
        }
        return nil
    }
}
