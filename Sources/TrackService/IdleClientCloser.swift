import ControlSocket
import NIOCore
import Synchronization
import TrackCore

/// Closes a client that has sent nothing for the idle timeout, unless it watches (a watcher only listens) or waits
/// for an answer (a long export); the client is told why in a last line.
final class IdleClientCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Set once the client watches.
    let watching = Atomic<Bool>(false)
    /// Requests being answered.
    let answering = Atomic<Int>(0)
    private let seconds: Int64

    init(seconds: Int64) {
        self.seconds = seconds
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard !watching.load(ordering: .relaxed), answering.load(ordering: .relaxed) == 0 else { return }
        let line = try? JSONLines.encode(RPCResponse<NoParams>(id: nil, error: .idle(seconds)))
        let channel = context.channel
        if let line {
            channel.writeAndFlush(line).whenComplete { _ in channel.close(promise: nil) }
        } else {
            channel.close(promise: nil)
        }
    }
}
