import ActionableCore
import ActionablePayload
import FuzzSupport

// `actionable payload --set KEY=VALUE`: typed by each example category's payload schema (string,
// integer, number, boolean, object, array keys). Any text is a value or an error, never a crash.

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: bytes(data, count), as: UTF8.self)
    for category in exampleCatalog.categories {
        if let (key, value) = try? category.payload.value(assigning: text) {
            _ = category.payload.violations(of: [(key, value)])
        }
    }
    return 0
}
