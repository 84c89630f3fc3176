/// How to reach a broker: what libmosquitto is given for one connection.
public struct MQTTOptions: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// The MQTT client id (the car's name).
    public var clientID: String
    public var keepAlive: Int
    /// TLS: the CA file (`nil`: no TLS), and an optional client certificate and key.
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    public var tls: Bool
    public var username: String?
    public var password: String?
    /// The last will, retained: published by the broker when the car goes without saying goodbye (`nil`: none).
    public var willTopic: String?
    public var willPayload = ""
    /// Messages in flight at once.
    public var sendMaximum: Int

    public init(host: String, port: Int, clientID: String, keepAlive: Int = 60, tls: Bool = false,
                caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, username: String? = nil,
                password: String? = nil, sendMaximum: Int = 100) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.tls = tls
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.username = username
        self.password = password
        self.sendMaximum = sendMaximum
    }
}
