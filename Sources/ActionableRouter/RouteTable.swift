/// The frozen lookup from (category, action) strings to a handler index.
///
/// Built once when the router freezes, read without locks or allocation on every dispatch:
/// - categories live in an open-addressing table whose slots pack a 32-bit hash tag with the
///   category's index, so a probe compares strings only when the tags agree;
/// - a category's actions (at most a dozen) are a contiguous run compared in order, which costs
///   less than hashing the action string;
/// - the hash is FNV-1a over the UTF-8 bytes with a per-table random seed.
///
/// A missing action falls back to the category's `category.*` handler, a missing category to
/// the `*` handler.
struct RouteTable: Sendable {
    private let slots: [UInt64]
    private let mask: Int
    private let seed: UInt64
    private let categoryNames: [String]
    /// `actionStart[i]..<actionStart[i + 1]` are category `i`'s actions.
    private let actionStart: [Int32]
    private let actionNames: [String]
    private let actionHandlers: [Int32]
    /// Per category: its `category.*` handler, else the `*` handler, else -1.
    private let categoryFallback: [Int32]
    private let anyHandler: Int32

    /// Routes of one category: its exact action routes and its `category.*` handler.
    struct CategoryRoutes {
        var name: String
        var actions: [(name: String, handler: Int32)]
        var fallback: Int32?
    }

    init(categories: [CategoryRoutes], anyHandler: Int32?) {
        var seedGenerator = SystemRandomNumberGenerator()
        seed = seedGenerator.next()
        self.anyHandler = anyHandler ?? -1
        var capacity = 8
        while capacity < categories.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        var slots = [UInt64](repeating: 0, count: capacity)
        var names: [String] = []
        var starts: [Int32] = [0]
        var actionNames: [String] = []
        var actionHandlers: [Int32] = []
        var fallbacks: [Int32] = []
        for (index, category) in categories.enumerated() {
            let hash = Self.hash(category.name, seed: seed)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
            names.append(category.name)
            for action in category.actions {
                actionNames.append(action.name)
                actionHandlers.append(action.handler)
            }
            starts.append(Int32(actionNames.count))
            fallbacks.append(category.fallback ?? self.anyHandler)
        }
        self.slots = slots
        self.categoryNames = names
        self.actionStart = starts
        self.actionNames = actionNames
        self.actionHandlers = actionHandlers
        self.categoryFallback = fallbacks
    }

    /// The handler index for (`category`, `action`), or -1.
    @inline(__always)
    func lookup(category: String, action: String) -> Int32 {
        let hash = Self.hash(category, seed: seed)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return anyHandler }
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let index = Int(entry & 0xFFFF_FFFF) - 1
                if categoryNames[index] == category {
                    var position = Int(actionStart[index])
                    let end = Int(actionStart[index + 1])
                    while position < end {
                        if actionNames[position] == action { return actionHandlers[position] }
                        position += 1
                    }
                    return categoryFallback[index]
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a, 64-bit, over UTF-8 bytes, seeded.
    @inline(__always)
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        let contiguous: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        if contiguous == nil {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        // Fold the high bits down so that the slot index (low bits) depends on every byte.
        return hash ^ (hash >> 29)
    }
}
