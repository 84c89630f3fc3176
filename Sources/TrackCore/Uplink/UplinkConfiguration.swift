/// Where and how the data leaves the car (the `uplink:` section of trackd.conf; docs/fleet.md). Off while no
/// broker is named.
public struct UplinkConfiguration: Sendable, Hashable {
    /// The broker: `mqtt://HOST[:PORT]` (1883) or `mqtts://HOST[:PORT]` (TLS, 8883); `nil`: no MQTT uplink.
    public var mqtt: MQTTAddress?
    /// A Traccar server's OsmAnd endpoint: `http://HOST:5055` or `https://…`; `nil`: no OsmAnd uplink.
    public var osmand: String?
    /// The car's name on the wire: the MQTT client id and the last part of the topic (`nil`: the host name).
    public var device: String?
    /// The base topic (`nil`: `owntracks/trackd/DEVICE`).
    public var topic: String?
    /// TLS: the CA certificates that may sign the broker's certificate, and an optional client certificate.
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    /// The user name, and the file holding the password (readable by trackd alone).
    public var username: String?
    public var passwordFile: String?
    /// Seconds between keep-alive pings.
    public var keepAlive = 60.0
    /// Messages in flight at once: the backlog is sent in windows of this many, acknowledged one by one.
    public var window = 100
    /// Seconds between writes of the watermark while messages are acknowledged: a power cut sends again at most
    /// what was acknowledged in this time and what was in flight.
    public var watermarkInterval = 10.0
    /// Seconds to wait before the first reconnect, and at most; the wait doubles after each failure, with jitter.
    public var reconnectMin = 1.0
    public var reconnectMax = 120.0
    /// Seconds a connection may take to come up (TCP, TLS, the broker's answer) before it is given up.
    public var connectTimeout = 20.0
    /// Seconds trackd goes on sending at a stop (the trip's end, just closed) before it says goodbye.
    public var drainTimeout = 3.0

    public init() {}

    /// The car's name: `device`, else `host`.
    public func deviceName(host: String) -> String {
        device ?? host
    }

    /// The base topic for the car called `device`.
    public func baseTopic(device: String) -> String {
        topic ?? "owntracks/trackd/\(device)"
    }
}

/// A broker's address: host, port and whether TLS is used.
public struct MQTTAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var tls: Bool

    public init(host: String, port: Int, tls: Bool) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`; `nil` when it is neither.
    public init?(parsing text: String) {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst("mqtts://".count)
        } else if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst("mqtt://".count)
        } else {
            return nil
        }
        let hostPort = rest.hasSuffix("/") ? rest.dropLast() : rest
        var host = Substring(hostPort)
        var port = tls ? 8883 : 1883
        if host.hasPrefix("[") {   // [::1]:1883
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65535).contains(value) else { return nil }
                port = value
            } else if !after.isEmpty {
                return nil
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let value = Int(host[host.index(after: colon)...]), (1...65535).contains(value) else { return nil }
            port = value
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { return nil }
        self.host = String(host)
        self.port = port
        self.tls = tls
    }

    public var description: String { "\(tls ? "mqtts" : "mqtt")://\(host):\(port)" }
}
