import TrackCore

/// The keys of the `uplink:` section: where the data leaves the car to (docs/fleet.md).
enum UplinkSettings {
    static let all: [Setting<UplinkConfiguration>] = [
        .parsed("mqtt", \.mqtt, "the MQTT broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS)") { text in
            MQTTAddress(parsing: text).map { .success($0) }
                ?? .failure(ExpectedValue("mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"))
        },
        .text("osmand", \.osmand, "a Traccar server's OsmAnd endpoint: http://HOST:5055 or https://HOST[:PORT][/PATH]",
              check: { ($0.hasPrefix("http://") || $0.hasPrefix("https://")) && $0.count > 8 ? nil : "http://HOST:PORT or https://HOST:PORT" }),
        .text("device", \.device, "the car's name on the wire: the MQTT client id and the topic's last part", check: topicWord),
        .text("topic", \.topic, "the base topic (default owntracks/trackd/DEVICE)", check: topic),
        .text("ca_file", \.caFile, "TLS: the CA certificates the broker's certificate must be signed by",
              check: DaemonSettings.absolutePath),
        .text("cert_file", \.certFile, "TLS: the car's client certificate", check: DaemonSettings.absolutePath),
        .text("key_file", \.keyFile, "TLS: the client certificate's key", check: DaemonSettings.absolutePath),
        .text("username", \.username, "the user name at the broker"),
        .text("password_file", \.passwordFile,
              "the file holding the broker's password (readable by trackd alone)", check: DaemonSettings.absolutePath),
        .number("keepalive", \.keepAlive, 5...3600, "s", "seconds between keep-alive pings"),
        .integer("window", \.window, 1...1000, "messages in flight at once"),
        .number("watermark_interval", \.watermarkInterval, 1...600, "s",
                "the watermark of what was acknowledged is written this often"),
        .number("reconnect_max", \.reconnectMax, 1...3600, "s", "the longest wait between attempts to reconnect"),
    ]

    static var keys: [String] { all.map(\.key) }

    @Sendable static func topicWord(_ text: String) -> String? {
        text.isEmpty || text.contains(where: { "/+#".contains($0) || $0.isWhitespace })
            ? "a name without /, +, # or spaces" : nil
    }

    @Sendable static func topic(_ text: String) -> String? {
        text.isEmpty || text.hasSuffix("/") || text.contains(where: { "+#".contains($0) })
            ? "a topic without + or # that does not end in /" : nil
    }
}
