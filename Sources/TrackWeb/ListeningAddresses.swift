import NIOCore
import NIOPosix
import Synchronization

/// The addresses the page listens on, as a phone would open them: what `trackctl web pair` prints.
public final class ListeningAddresses: Sendable {
    private let addresses = Mutex<[(address: SocketAddress, scheme: String)]>([])

    public init() {}

    /// Notes one of the page's listening sockets, reached with `scheme` (`http`, `https`).
    func record(_ address: SocketAddress, scheme: String) {
        addresses.withLock { $0.append((address, scheme)) }
    }

    /// `SCHEME://HOST:PORT` for each page socket, HTTPS first; a socket on every address (0.0.0.0 or ::) is named by
    /// each of the board's own addresses but loopback.
    public func pageURLs() -> [String] {
        var urls: [String] = []
        let recorded = addresses.withLock { $0 }
        for (address, scheme) in recorded.filter({ $0.scheme == "https" }) + recorded.filter({ $0.scheme != "https" }) {
            guard let ip = address.ipAddress, let port = address.port else { continue }
            if ip == "0.0.0.0" || ip == "::" {
                let devices = (try? System.enumerateDevices()) ?? []
                for device in devices {
                    guard let own = device.address, let text = own.ipAddress, !Self.isLoopback(text) else { continue }
                    if ip == "0.0.0.0", case .v6 = own { continue }
                    if case .v6 = own, text.hasPrefix("fe80") { continue }
                    urls.append(Self.url(scheme: scheme, host: text, port: port))
                }
            } else {
                urls.append(Self.url(scheme: scheme, host: ip, port: port))
            }
        }
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }

    private static func isLoopback(_ ip: String) -> Bool {
        ip.hasPrefix("127.") || ip == "::1"
    }

    private static func url(scheme: String, host: String, port: Int) -> String {
        host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }
}
