import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Closes a connection whose request — header and body, from its first byte to its last —
/// takes longer than the read timeout to arrive, so that clients that trickle their bytes
/// cannot hold connections (and the server's memory) for as long as they like.
///
/// Two handlers share one ``RequestReadDeadline``: ``RequestBytesWatcher`` sits before the HTTP
/// decoder and arms the deadline when the first byte of a request arrives;
/// ``RequestEndWatcher`` sits after the decoder and disarms it when the request's end is read.
/// Time spent answering is not counted, and idle keep-alive time is the idle timeout's.
final class RequestReadDeadline {
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    private var reading = false

    init(timeout: TimeAmount) { self.timeout = timeout }

    /// Bytes arrived: a request has begun unless one is being read already.
    func bytesArrived(context: ChannelHandlerContext) {
        guard !reading else { return }
        reading = true
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    /// A request's head was decoded (a pipelined request may follow the previous one's end
    /// in the same read).
    func headRead(context: ChannelHandlerContext) { bytesArrived(context: context) }

    /// A request's end was decoded: it arrived in time.
    func requestRead() {
        reading = false
        timer?.cancel()
        timer = nil
    }

    /// The connection closed.
    func cancel() { requestRead() }
}

/// Arms ``RequestReadDeadline`` on the first bytes of a request.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    private let deadline: RequestReadDeadline

    init(deadline: RequestReadDeadline) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline.bytesArrived(context: context)
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline.cancel()
        context.fireChannelInactive()
    }
}

/// Disarms ``RequestReadDeadline`` once a request's end is decoded.
final class RequestEndWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    private let deadline: RequestReadDeadline

    init(deadline: RequestReadDeadline) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: deadline.headRead(context: context)
        case .end: deadline.requestRead()
        case .body: break
        }
        context.fireChannelRead(data)
    }
}

/// An HTTP/1.1 child channel with a read deadline per request (``RequestReadDeadline``) around
/// Hummingbird's own.
struct ReadDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let deadline = RequestReadDeadline(timeout: timeout)
        do {
            try channel.pipeline.syncOperations.addHandler(RequestBytesWatcher(deadline: deadline))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(RequestEndWatcher(deadline: deadline), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with Hummingbird's `configuration` and a read deadline of `readTimeout` per request.
    static func http1(configuration: HTTP1Channel.Configuration, readTimeout: TimeAmount) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            ReadDeadlineChannel(base: HTTP1Channel(responder: responder, configuration: configuration), timeout: readTimeout)
        }
    }
}

extension TimeAmount {
    /// `duration` as NIO's time amount (nanoseconds).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
