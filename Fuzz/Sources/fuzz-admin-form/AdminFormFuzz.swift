import Foundation
import FuzzSupport

@testable import ActionableHTTP

// An admin form body (POST /admin/session, /admin/logout, /admin/deliveries/{id}/retry), read
// as the server reads it: the fields, or a 400 Problem, never a trap. (Foundation's
// URLComponents.percentEncodedQuery, used before, stopped the process on `token=%`.)

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: bytes(data, count), as: UTF8.self)
    do {
        _ = try AdminForm.fields(text)
    } catch {
        precondition(error.status.code == 400, "an unreadable form must be a 400, not \(error.status)")
    }
    return 0
}
