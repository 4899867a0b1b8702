import CYaml

/// Composes one YAML document into ``YAMLNode``s from libYAML's events (the libYAML that Yams
/// ships), refusing what a category file may not hold: a second document, an undefined alias,
/// a duplicate key. Problems come back as positioned `syntax` diagnostics.
///
/// The loader used to compose with Yams' `Parser`, whose nodes carry a tag object and are
/// checked for duplicates by hashing every key node; composing only what the decoder reads cut
/// the CPU time to lint 10,000 files by more than half (BENCHMARKS.md). Yams still parses everything else
/// (the lint configuration, the positions of ``SourceMap``).
struct YAMLComposer {
    let path: String
    let text: String

    /// The document's root, or `nil` for a stream without a document.
    func compose() throws(Diagnostic) -> YAMLNode? {
        CatalogLoader.configureNestingLimit()
        var text = text
        let result: Result<YAMLNode?, Diagnostic> = text.withUTF8 { buffer in
            var session = Session(path: path, text: self.text)
            yaml_parser_set_encoding(session.parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(session.parser, buffer.baseAddress, buffer.count)
            defer { session.close() }
            do throws(Diagnostic) {
                return .success(try session.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// One parse: the libYAML parser (at a fixed address, as libYAML points into it), the text (for
/// the position of a reader error), and the anchors seen so far.
private struct Session {
    let path: String
    let text: String
    let parser: UnsafeMutablePointer<yaml_parser_t>
    var anchors: [String: YAMLNode] = [:]

    init(path: String, text: String) {
        self.path = path
        self.text = text
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
    }

    func close() {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The next event's kind, start, and the part of it the composer needs.
    private enum Event {
        case streamStart, streamEnd
        case documentStart(YAMLMark)
        case documentEnd
        case alias(anchor: String, YAMLMark)
        case scalar(YAMLScalar, anchor: String?)
        case sequenceStart(anchor: String?, YAMLMark)
        case sequenceEnd
        case mappingStart(anchor: String?, YAMLMark)
        case mappingEnd
    }

    private func next() throws(Diagnostic) -> Event {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw parserError() }
        defer { yaml_event_delete(&event) }
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart(mark)
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT: return .alias(anchor: string(event.data.alias.anchor) ?? "", mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
            return .scalar(
                YAMLScalar(string: value, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, mark: mark),
                anchor: string(scalar.anchor))
        case YAML_SEQUENCE_START_EVENT: return .sequenceStart(anchor: string(event.data.sequence_start.anchor), mark)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT: return .mappingStart(anchor: string(event.data.mapping_start.anchor), mark)
        default: return .mappingEnd
        }
    }

    mutating func document() throws(Diagnostic) -> YAMLNode? {
        guard case .streamStart = try next() else { throw error("the file does not start a YAML stream", at: nil) }
        guard case .documentStart = try next() else { return nil }  // an empty stream
        let root = try node(try next())
        _ = try next()  // the document's end
        switch try next() {
        case .streamEnd:
            return root
        case .documentStart(let mark):
            throw error(
                "a second YAML document starts here; a category file holds one category, so move it to a file of its own",
                at: mark)
        default:
            throw error("the file does not end where its document does", at: nil)
        }
    }

    private mutating func node(_ event: Event) throws(Diagnostic) -> YAMLNode {
        switch event {
        case .alias(let anchor, let mark):
            guard let node = anchors[anchor] else {
                throw error("not valid YAML or JSON: found undefined alias \"\(anchor)\"", at: mark)
            }
            return node
        case .scalar(let scalar, let anchor):
            return register(.scalar(scalar), anchor)
        case .sequenceStart(let anchor, let mark):
            var elements: [YAMLNode] = []
            while true {
                let event = try next()
                if case .sequenceEnd = event { break }
                elements.append(try node(event))
            }
            return register(.sequence(elements, mark), anchor)
        case .mappingStart(let anchor, let mark):
            var pairs: [YAMLPair] = []
            var keys: [String: YAMLMark] = [:]
            while true {
                let event = try next()
                if case .mappingEnd = event { break }
                let key = try node(event)
                let value = try node(try next())
                if case .scalar(let scalar) = key {
                    if let first = keys[scalar.string] {
                        throw error(
                            "duplicate key \"\(scalar.string)\" (first at line \(first.line)); YAML keeps only one, so remove or rename one",
                            at: scalar.mark)
                    }
                    keys[scalar.string] = scalar.mark
                }
                pairs.append(YAMLPair(key: key, value: value))
            }
            return register(.mapping(pairs, mark), anchor)
        default:
            throw error("the file's YAML events are out of order", at: nil)
        }
    }

    private mutating func register(_ node: YAMLNode, _ anchor: String?) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        return node
    }

    private func error(_ message: String, at mark: YAMLMark?) -> Diagnostic {
        Diagnostic(
            location: SourceLocation(file: path, line: mark?.line ?? 1, column: mark?.column ?? 1), severity: .error,
            rule: "syntax", message: message)
    }

    /// libYAML's own error, positioned where it found the problem.
    private func parserError() -> Diagnostic {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "cannot parse the file"
        if state.error == YAML_READER_ERROR {
            let (line, column) = YAMLErrorTranslator.position(ofByte: Int(state.problem_offset), in: text)
            return error(YAMLErrorTranslator.message(problem: problem, context: nil), at: YAMLMark(line: line, column: column))
        }
        let context = state.context.map { String(cString: $0) }
        return error(
            YAMLErrorTranslator.message(problem: problem, context: context),
            at: YAMLMark(line: Int(state.problem_mark.line) + 1, column: Int(state.problem_mark.column) + 1))
    }
}
