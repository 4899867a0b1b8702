/// The frozen lookup from (category, action) strings to a handler.
///
/// Built once when the router freezes, read without locks or allocation on every dispatch:
/// - categories live in an open-addressing table whose slots pack a 32-bit hash tag with the
///   category's index, so a probe compares strings only when the tags agree;
/// - each category is one record (name, its run of actions, its fallback), and its actions (at
///   most a dozen) are a contiguous run of (name, route) records compared in order, which
///   costs less than hashing the action;
/// - the hash mixes eight UTF-8 bytes per step, with a per-table random seed.
///
/// A missing action falls back to the category's `category.*` handler, a missing category to
/// the `*` handler.
struct RouteTable: Sendable {
    // Records hold indices, not handlers: a lookup reads fields in place and returns an Int32,
    // so it retains nothing; only the chosen handler is fetched (and retained) by the caller.
    private struct CategoryRecord: Sendable {
        var name: String
        var actionsStart: Int32
        var actionsEnd: Int32
        var fallback: Int32
    }

    private struct ActionRecord: Sendable {
        /// The name's UTF-8 length, compared before the name: most mismatches then cost an
        /// integer compare instead of a call into the string comparison.
        var length: Int
        var name: String
        var route: Int32
    }

    private let slots: [UInt64]
    private let mask: Int
    private let seed: UInt64
    private let categories: [CategoryRecord]
    private let actions: [ActionRecord]
    private let anyRoute: Int32

    /// Routes of one category: its exact action routes and its `category.*` route, as indices.
    struct CategoryRoutes {
        var name: String
        var actions: [(name: String, route: Int32)]
        var fallback: Int32?
    }

    init(categories routes: [CategoryRoutes], anyRoute: Int32?) {
        var seedGenerator = SystemRandomNumberGenerator()
        let seed = seedGenerator.next()
        self.seed = seed
        self.anyRoute = anyRoute ?? -1
        var capacity = 8
        while capacity < routes.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        var slots = [UInt64](repeating: 0, count: capacity)
        var categories: [CategoryRecord] = []
        var actions: [ActionRecord] = []
        for (index, category) in routes.enumerated() {
            let hash = Self.hash(category.name, seed: seed)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
            let start = Int32(actions.count)
            actions += category.actions.map { ActionRecord(length: $0.name.utf8.count, name: $0.name, route: $0.route) }
            categories.append(
                CategoryRecord(
                    name: category.name, actionsStart: start, actionsEnd: Int32(actions.count),
                    fallback: category.fallback ?? anyRoute ?? -1))
        }
        self.slots = slots
        self.categories = categories
        self.actions = actions
    }

    /// The route index for (`category`, `action`), or -1.
    @inline(__always)
    func lookup(category: String, action: String) -> Int32 {
        let hash = Self.hash(category, seed: seed)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return anyRoute }
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let index = Int(entry & 0xFFFF_FFFF) - 1
                if categories[index].name == category {
                    var position = Int(categories[index].actionsStart)
                    let end = Int(categories[index].actionsEnd)
                    let actionLength = action.utf8.count
                    while position < end {
                        if actions[position].length == actionLength && actions[position].name == action {
                            return actions[position].route
                        }
                        position += 1
                    }
                    return categories[index].fallback
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// A seeded multiply–xorshift hash over the UTF-8 bytes, eight bytes per step (FNV-1a's
    /// byte-at-a-time multiplies were half the lookup). Matches are always confirmed by string
    /// equality, so the hash only has to spread keys, not resist forgery.
    @inline(__always)
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0), seed: seed) }) {
            return hash
        }
        return Array(text.utf8).withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = seed ^ (UInt64(bytes.count) &* multiplier)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            hash ^= hash >> 29
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
            hash = (hash ^ tail) &* multiplier
            hash ^= hash >> 29
        }
        hash = (hash ^ (hash >> 32)) &* multiplier
        return hash ^ (hash >> 29)
    }
}
