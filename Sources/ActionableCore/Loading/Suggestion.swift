/// "Did you mean" suggestions for misspelled keys, enum values and identifiers.
public enum Suggestion {
    /// The candidate closest to `text`, if one is close enough to be a likely typo: equal when
    /// case is ignored, or within an edit distance of 1 (short words) to 3 (long words).
    public static func closest<S: Sequence>(to text: String, in candidates: S) -> String?
    where S.Element == String {
        let lowered = Array(text.lowercased().unicodeScalars)
        let limit = lowered.count <= 4 ? 1 : lowered.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != text {
            let distance = editDistance(lowered, Array(candidate.lowercased().unicodeScalars), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, distance > current.distance || (distance == current.distance && candidate >= current.candidate) {
                continue
            }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// ` (did you mean "x"?)` or an empty string, ready to append to a message.
    public static func didYouMean<S: Sequence>(_ text: String, in candidates: S) -> String
    where S.Element == String {
        closest(to: text, in: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions), giving up
    /// early once every path exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
