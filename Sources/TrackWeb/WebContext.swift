import Hummingbird
import NIOCore
import TrackWebClient

/// What a request carries through trackd-web's routes: Hummingbird's own context, the peer's address, and the paired
/// device once its session is checked.
public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who asked, as the socket saw it (the journal's line about a wrong pairing code names it).
    public let remoteAddress: SocketAddress?
    /// The paired device making the request; `nil` until `SessionMiddleware` has checked its session.
    public var device: PairedDevice?
    /// Whether the request came over HTTPS (to trackd-web itself, or through a proxy with `--secure-cookies`).
    public var isSecure = false

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
        device = nil
    }

    /// The peer's address as text, for the journal.
    var peer: String {
        remoteAddress?.ipAddress ?? remoteAddress.map { "\($0)" } ?? "a local client"
    }
}
