import ActionableWire
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Closes a connection whose request — header and body — takes longer than the read timeout to
/// arrive, so that clients that trickle their bytes (or send none) cannot hold connections (and
/// the server's memory) for as long as they like.
///
/// The first request's time starts when the connection opens, not at its first byte: a socket
/// that connects and sends nothing is closed when the time is up. A later request on a kept-alive
/// connection starts its time at its first byte (the time between requests is the idle
/// timeout's).
///
/// Two handlers share one ``RequestReadDeadline``: ``RequestBytesWatcher`` sits before the HTTP
/// decoder and arms the deadline when the connection opens and when the first byte of a later
/// request arrives; ``RequestEndWatcher`` sits after the decoder and disarms it when the
/// request's end is read. Time spent answering is not counted.
final class RequestReadDeadline {
    private let timeout: TimeAmount
    /// The one check scheduled for the connection, if any: it is not cancelled when a request
    /// ends in time, but finds the connection between requests (or in a later one that still has
    /// time) and re-arms or lapses. A timer scheduled and cancelled per request cost every tap
    /// an allocation and two heap operations on the event loop.
    private var timer: Scheduled<Void>?
    /// When the request being read began; `nil` between requests.
    private var started: NIODeadline?

    init(timeout: TimeAmount) { self.timeout = timeout }

    /// Bytes arrived: a request has begun unless one is being read already.
    func bytesArrived(context: ChannelHandlerContext) {
        guard started == nil else { return }
        let now = context.eventLoop.now
        started = now
        if timer == nil { arm(at: now + timeout, channel: context.channel, on: context.eventLoop) }
    }

    /// A request's head was decoded (a pipelined request may follow the previous one's end
    /// in the same read).
    func headRead(context: ChannelHandlerContext) { bytesArrived(context: context) }

    /// A request's end was decoded: it arrived in time.
    func requestRead() { started = nil }

    /// The connection closed.
    func cancel() {
        started = nil
        timer?.cancel()
        timer = nil
    }

    /// Schedules the check on `loop`, the connection's event loop, where every call to this
    /// object is made.
    private func arm(at deadline: NIODeadline, channel: any Channel, on loop: any EventLoop) {
        let bound = NIOLoopBound(self, eventLoop: loop)
        timer = loop.scheduleTask(deadline: deadline) { bound.value.check(channel: channel, on: loop) }
    }

    private func check(channel: any Channel, on loop: any EventLoop) {
        timer = nil
        guard let started else { return }  // between requests: the next one arms again
        if loop.now >= started + timeout {
            channel.close(promise: nil)
        } else {
            arm(at: started + timeout, channel: channel, on: loop)  // a later request, with time left
        }
    }
}

/// Arms ``RequestReadDeadline`` on the first bytes of a request.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    private let deadline: RequestReadDeadline

    init(deadline: RequestReadDeadline) { self.deadline = deadline }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { deadline.bytesArrived(context: context) }
    }

    /// The connection opened: its first request's time starts now.
    func channelActive(context: ChannelHandlerContext) {
        deadline.bytesArrived(context: context)
        context.fireChannelActive()
    }

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
/// Hummingbird's own, and at most ``ConnectionsPerAddress/limit`` connections from one peer
/// address.
struct ReadDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let timeout: TimeAmount
    /// The listener's count of open connections per peer address.
    let perAddress: ConnectionsPerAddress

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let deadline = RequestReadDeadline(timeout: timeout)
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let admitted = perAddress.open(address)
        channel.closeFuture.whenComplete { _ in perAddress.close(address) }
        do {
            if !admitted {
                // Closed as soon as it is active: the place it took is given back on close, and
                // Hummingbird's own count of connections is given back the same way.
                logger.debug(
                    "connection refused: too many from one address", metadata: ["client": "\(address)", "limit": "\(perAddress.limit)"])
                try channel.pipeline.syncOperations.addHandler(CloseWhenActive())
            }
            try channel.pipeline.syncOperations.addHandler(RequestBytesWatcher(deadline: deadline))
        } catch {
            channel.close(promise: nil)
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
    /// HTTP/1.1 with Hummingbird's `configuration`, a read deadline of `readTimeout` per request
    /// (from the connection's opening for its first) and at most `perAddress` connections open
    /// from one peer address (0: no limit).
    static func http1(configuration: HTTP1Channel.Configuration, readTimeout: TimeAmount, perAddress: Int) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            // Made once per listener: each listener counts its own connections.
            ReadDeadlineChannel(
                base: HTTP1Channel(responder: responder, configuration: configuration), timeout: readTimeout,
                perAddress: ConnectionsPerAddress(limit: perAddress))
        }
    }
}

/// Open connections per peer address, for one listener: a connection past ``limit`` from one
/// address is closed at once, so that idle sockets from one peer never keep others out.
final class ConnectionsPerAddress: Sendable {
    /// The most connections open from one address (0: no limit).
    let limit: Int
    private let open = Mutex<[String: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Counts a connection from `address`; whether it is within the limit. Every call is
    /// matched by one ``close(_:)``, admitted or not.
    func open(_ address: String) -> Bool {
        open.withLock { open in
            let count = (open[address] ?? 0) + 1
            open[address] = count
            return limit <= 0 || count <= limit
        }
    }

    /// A connection from `address` closed.
    func close(_ address: String) {
        open.withLock { open in
            let left = (open[address] ?? 1) - 1
            open[address] = left > 0 ? left : nil
        }
    }

    /// The connections open from `address`.
    func count(_ address: String) -> Int { open.withLock { $0[address] ?? 0 } }
}

/// Closes its connection as soon as it is active (a connection past the per-address limit).
final class CloseWhenActive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        context.close(promise: nil)
    }
}

extension TimeAmount {
    /// `duration` as NIO's time amount (nanoseconds, saturating).
    init(_ duration: Duration) {
        self = .nanoseconds(duration.saturatingNanoseconds)
    }
}
