import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reporter's session delegate: it refuses every redirect, so the 3xx itself is the answer.
/// A followed redirect would re-send a report somewhere else, or turn the POST into a GET whose
/// 2xx could pass for a delivery.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
