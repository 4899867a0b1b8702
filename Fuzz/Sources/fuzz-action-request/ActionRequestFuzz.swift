import ActionableCore
import ActionableHTTP
import Foundation
import FuzzSupport

// A POST /v1/actions body: decoded as the server decodes it, then checked against the example
// catalog as the server checks it. Bad input must be an error, never a crash.

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let body = try? JSONDecoder().decode(ActionRequestBody.self, from: Data(bytes(data, count))) else { return 0 }
    let response = body.response(notificationID: body.notificationId ?? "n-fuzz", user: "fuzz")
    do {
        _ = try exampleCatalog.validate(response)
    } catch {
        _ = error.description
        _ = error.errors
    }
    return 0
}
