import CMosquitto
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One connection to an MQTT broker through libmosquitto (Debian's libmosquitto, from the mosquitto project): MQTT
/// 3.1.1, QoS 1, TLS, a user name and password, a retained last will. libmosquitto runs the connection on a thread
/// of its own and reports through `events`; `publish` may be called from any task. A client is used for one
/// connection: after a disconnect it is closed and a new one made, so that nothing libmosquitto kept from the old
/// connection is sent again behind the caller's back (the log decides what is sent again).
public final class MQTTClient: Sendable {
    private let handle: Mutex<Handle>
    private let sink: Unmanaged<EventSink>
    private let broker: String
    private let options: MQTTOptions

    /// Sets up a client for `options`; its events go to `onEvent`, called on libmosquitto's thread. Nothing is
    /// connected yet (`connect`).
    public init(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws(MQTTError) {
        if let reason = trackd_mosquitto_unavailable() { throw .setup(String(cString: reason)) }
        MQTTClient.initialised.withLock { done in
            if !done { mosquitto_lib_init(); done = true }
        }
        self.options = options
        broker = "\(options.host):\(options.port)"
        let sink = Unmanaged.passRetained(EventSink(onEvent))
        guard let mosq = mosquitto_new(options.clientID, true, sink.toOpaque()) else {
            sink.release()
            throw .setup("mosquitto_new failed (out of memory, or a bad client id)")
        }
        self.sink = sink
        handle = Mutex(Handle(pointer: mosq))
        do throws(MQTTError) {
            try MQTTClient.configure(mosq, options)
        } catch {
            mosquitto_destroy(mosq)
            sink.release()
            throw error
        }
    }

    deinit {
        close()
        sink.release()
    }

    private static let initialised = Mutex(false)

    private static func configure(_ mosq: OpaquePointer, _ options: MQTTOptions) throws(MQTTError) {
        _ = mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        _ = mosquitto_int_option(mosq, MOSQ_OPT_SEND_MAXIMUM, Int32(clamping: options.sendMaximum))
        // The caller reconnects, with its own backoff: libmosquitto's thread is not to try on its own meanwhile.
        _ = mosquitto_reconnect_delay_set(mosq, 86_400, 86_400, false)
        mosquitto_connect_callback_set(mosq) { _, object, code in
            EventSink.from(object).connected(code: code)
        }
        mosquitto_disconnect_callback_set(mosq) { _, object, code in
            EventSink.from(object).disconnected(code: code)
        }
        mosquitto_publish_callback_set(mosq) { _, object, mid in
            EventSink.from(object).send(.acknowledged(mid))
        }
        mosquitto_log_callback_set(mosq) { _, object, level, text in
            guard level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0, let text else { return }
            EventSink.from(object).note(String(cString: text))
        }
        if let username = options.username {
            let code = mosquitto_username_pw_set(mosq, username, options.password)
            guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .setup(MQTTClient.text(code)) }
        }
        if let topic = options.willTopic {
            let payload = Array(options.willPayload.utf8)
            let code = mosquitto_will_set(mosq, topic, Int32(payload.count), payload, 1, true)
            guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .setup("last will: \(MQTTClient.text(code))") }
        }
        if options.tls {
            // Without a CA file, the system's certificates (Debian's /etc/ssl/certs).
            let code = mosquitto_tls_set(mosq, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil,
                                         options.certFile, options.keyFile, nil)
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                let file = [options.caFile, options.certFile, options.keyFile].compactMap { $0 }.first {
                    access($0, R_OK) != 0
                }
                throw .tls(file: file, reason: file == nil ? MQTTClient.text(code) : "missing or not readable")
            }
        }
    }

    /// Starts connecting, and libmosquitto's thread; `.connected` or `.refused`/`.disconnected` follows.
    public func connect() throws(MQTTError) {
        let code: Int32 = handle.withLock { handle in
            guard let mosq = handle.pointer else { return MOSQ_ERR_INVAL.rawValue }
            let code = mosquitto_connect_async(mosq, options.host, Int32(options.port), Int32(options.keepAlive))
            guard code == MOSQ_ERR_SUCCESS.rawValue else { return code }
            return mosquitto_loop_start(mosq)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            let detail = sink.takeUnretainedValue().lastNote()
            throw .connect(broker: broker, reason: detail.map { "\(MQTTClient.text(code)) (\($0))" } ?? MQTTClient.text(code))
        }
    }

    /// Hands a message to libmosquitto at QoS 1; returns its id, which `.acknowledged` names once the broker has
    /// it.
    public func publish(topic: String, payload: [UInt8], retain: Bool = false) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        let code: Int32 = handle.withLock { handle in
            guard let mosq = handle.pointer else { return MOSQ_ERR_NO_CONN.rawValue }
            return mosquitto_publish(mosq, &mid, topic, Int32(payload.count), payload, 1, retain)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .publish(reason: MQTTClient.text(code)) }
        return mid
    }

    /// Says goodbye (a clean DISCONNECT: the broker does not publish the last will) and stops the thread; the client
    /// is done.
    ///
    /// libmosquitto's thread writes the DISCONNECT, after whatever was published before it, and then reports the
    /// disconnection; the thread is stopped only after that report, or after `goodbye` (a broker that takes nothing
    /// more, a connection still being made to a host that does not answer). Stopping it at once, as before, closed
    /// the socket before the DISCONNECT was written whenever the stop came soon after a publish or the connection,
    /// and the broker published the last will.
    public func close(goodbye: Duration = .seconds(3)) {
        handle.withLock { handle in
            guard let client = handle.pointer else { return }
            let queued = mosquitto_disconnect(client) == MOSQ_ERR_SUCCESS.rawValue
            let written = queued && sink.takeUnretainedValue().waitForDisconnection(upTo: goodbye)
            _ = mosquitto_loop_stop(client, !written)
            mosquitto_destroy(client)
            handle.pointer = nil
        }
    }

    /// The last error or warning libmosquitto logged (a TLS failure says why there).
    public var lastNote: String? { sink.takeUnretainedValue().lastNote() }

    /// libmosquitto's words for an error code.
    static func text(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(code))
    }
}

/// libmosquitto's client, used under the client's lock only (its own thread runs the connection).
private struct Handle: @unchecked Sendable {
    var pointer: OpaquePointer?
}

/// Where libmosquitto's callbacks land: the client's event handler, and the last error it logged.
private final class EventSink: Sendable {
    private let onEvent: @Sendable (MQTTEvent) -> Void
    private let note = Mutex<String?>(nil)
    /// A pipe libmosquitto's disconnection reports write a byte into, for `waitForDisconnection`; -1 without one.
    private let disconnections: (read: Int32, write: Int32)

    init(_ onEvent: @escaping @Sendable (MQTTEvent) -> Void) {
        self.onEvent = onEvent
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)   // the callback never blocks on a full pipe
        } else {
            ends = [-1, -1]
        }
        disconnections = (ends[0], ends[1])
    }

    deinit {
        if disconnections.read >= 0 {
            Glibc.close(disconnections.read)
            Glibc.close(disconnections.write)
        }
    }

    /// Waits until libmosquitto has reported a disconnection, at most `limit`; whether it did.
    func waitForDisconnection(upTo limit: Duration) -> Bool {
        guard disconnections.read >= 0 else { return false }
        let deadline = ContinuousClock.now + limit
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            var watched = pollfd(fd: disconnections.read, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, Int32(clamping: max(1, milliseconds)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    static func from(_ object: UnsafeMutableRawPointer?) -> EventSink {
        Unmanaged<EventSink>.fromOpaque(object!).takeUnretainedValue()
    }

    func send(_ event: MQTTEvent) {
        onEvent(event)
    }

    func connected(code: Int32) {
        if code == 0 {
            send(.connected)
        } else {
            send(.refused(code: code, reason: String(cString: mosquitto_connack_string(code))))
        }
    }

    func disconnected(code: Int32) {
        let reason = code == 0 ? "disconnected" : lastNote() ?? String(cString: mosquitto_strerror(code))
        send(.disconnected(code: code, reason: reason))
        var byte: UInt8 = 1
        if disconnections.write >= 0 { _ = write(disconnections.write, &byte, 1) }
    }

    func note(_ text: String) {
        note.withLock { $0 = text }
    }

    func lastNote() -> String? {
        note.withLock { $0 }
    }
}
