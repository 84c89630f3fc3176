import CMosquitto
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One connection to an MQTT broker through libmosquitto (Debian's libmosquitto, from the mosquitto project): MQTT
/// 3.1.1, QoS 1, TLS, a user name and password, a retained last will. A thread of the client's own (`MQTTLoop`)
/// runs the connection and reports through `events`; `publish` may be called from any task. A client is used for one
/// connection: after a disconnect it is closed and a new one made, so that nothing libmosquitto kept from the old
/// connection is sent again behind the caller's back (the log decides what is sent again).
public final class MQTTClient: Sendable {
    private let handle: Mutex<Handle>
    private let sink: Unmanaged<EventSink>
    private let broker: String
    private let options: MQTTOptions

    /// Sets up a client for `options`; its events go to `onEvent`, called on the connection's thread. Nothing is
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
        // The connection runs on a thread of the client's own (MQTTLoop): libmosquitto is told so, and then
        // leaves every write to that thread instead of writing from the caller's. The caller reconnects, with its
        // own backoff, through a new client.
        _ = mosquitto_threaded_set(mosq, true)
        mosquitto_connect_callback_set(mosq) { _, object, code in
            EventSink.from(object).connected(code: code)
        }
        mosquitto_disconnect_callback_set(mosq) { _, object, code in
            EventSink.from(object).disconnected(code: code)
        }
        mosquitto_publish_callback_set(mosq) { _, object, mid in
            EventSink.from(object).acknowledged(mid)
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

    /// Starts connecting, and the connection's thread; `.connected` or `.refused`/`.disconnected` follows.
    public func connect() throws(MQTTError) {
        let sink = sink.takeUnretainedValue()
        let code: Int32 = try handle.withLock { (handle: inout Handle) throws(MQTTError) -> Int32 in
            guard let mosq = handle.pointer, handle.loop == nil else { return MOSQ_ERR_INVAL.rawValue }
            let code = mosquitto_connect_async(mosq, options.host, Int32(options.port), Int32(options.keepAlive))
            guard code == MOSQ_ERR_SUCCESS.rawValue else { return code }
            handle.loop = try MQTTLoop(mosq, broker: broker) { code in sink.ended(code: code) }
            return code
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            let detail = sink.lastNote()
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
        sink.takeUnretainedValue().published(mid)
        return mid
    }

    /// Says goodbye (a clean DISCONNECT: the broker does not publish the last will) and stops the thread; the client
    /// is done.
    ///
    /// Within `goodbye` (a broker that takes nothing more, a connection still being made to a host that does not
    /// answer), in order:
    /// - the messages published and not yet acknowledged are waited for: libmosquitto 2.0 takes an acknowledgement
    ///   that arrives after `mosquitto_disconnect` for a protocol error and closes the socket without the
    ///   DISCONNECT it had queued;
    /// - the connection's thread writes the DISCONNECT and reports the disconnection;
    /// - the thread is asked to end, and ends within its round (a second at most), whether or not the goodbye went
    ///   out: it is never cancelled (`MQTTLoop` says why).
    /// Stopping it at once, as before, closed the socket before the DISCONNECT was written whenever the stop came
    /// soon after a publish or the connection, and the broker published the last will.
    public func close(goodbye: Duration = .seconds(5)) {
        handle.withLock { handle in
            guard let client = handle.pointer else { return }
            if let loop = handle.loop {
                let sink = sink.takeUnretainedValue()
                let deadline = ContinuousClock.now + goodbye
                _ = sink.wait(until: deadline) { $0.unacknowledged == 0 || $0.isDisconnected }
                if mosquitto_disconnect(client) == MOSQ_ERR_SUCCESS.rawValue {
                    _ = sink.wait(until: deadline) { $0.isDisconnected }
                }
                loop.stop()
                handle.loop = nil
            }
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

/// libmosquitto's client, used under the client's lock only, and the thread that runs its connection.
private struct Handle: @unchecked Sendable {
    var pointer: OpaquePointer?
    var loop: MQTTLoop?
}

/// Where libmosquitto's callbacks land: the client's event handler, and the last error it logged.
private final class EventSink: Sendable {
    private let onEvent: @Sendable (MQTTEvent) -> Void
    private let note = Mutex<String?>(nil)
    /// What `close` waits on: messages published and not acknowledged yet, and whether libmosquitto reported a
    /// disconnection. An acknowledgement may come before `publish` has noted its id: ids are matched either way.
    private let state = Mutex(State())
    /// A pipe each report writes a byte into, for `wait(until:_:)`; -1 without one.
    private let wakeups: (read: Int32, write: Int32)

    struct State {
        var published: Set<Int32> = []
        var acknowledgedEarly: Set<Int32> = []
        var isDisconnected = false
        var unacknowledged: Int { published.count }
    }

    init(_ onEvent: @escaping @Sendable (MQTTEvent) -> Void) {
        self.onEvent = onEvent
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)   // a report never blocks on a full pipe; a wait drains it
            }
        } else {
            ends = [-1, -1]
        }
        wakeups = (ends[0], ends[1])
    }

    deinit {
        if wakeups.read >= 0 {
            Glibc.close(wakeups.read)
            Glibc.close(wakeups.write)
        }
    }

    /// Waits until `condition` holds of the state, woken by each report, at most until `deadline`; whether it holds.
    func wait(until deadline: ContinuousClock.Instant, _ condition: (State) -> Bool) -> Bool {
        while true {
            if state.withLock({ condition($0) }) { return true }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, wakeups.read >= 0 else { return false }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            var watched = pollfd(fd: wakeups.read, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, Int32(clamping: max(1, milliseconds)))
            if ready < 0 && errno != EINTR { return false }
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(wakeups.read, &bytes, bytes.count) > 0 {}
        }
    }

    /// Wakes a `wait`.
    private func wake() {
        var byte: UInt8 = 1
        if wakeups.write >= 0 { _ = write(wakeups.write, &byte, 1) }
    }

    /// `publish` handed message `mid` to libmosquitto.
    func published(_ mid: Int32) {
        state.withLock { state in
            if state.acknowledgedEarly.remove(mid) == nil { state.published.insert(mid) }
        }
    }

    /// The broker acknowledged message `mid`.
    func acknowledged(_ mid: Int32) {
        state.withLock { state in
            if state.published.remove(mid) == nil { state.acknowledgedEarly.insert(mid) }
        }
        send(.acknowledged(mid))
        wake()
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

    /// libmosquitto reported the connection gone with `code` (0: asked to).
    func disconnected(code: Int32) {
        state.withLock { $0.isDisconnected = true }
        send(.disconnected(code: code, reason: reason(code)))
        wake()
    }

    /// The connection's thread ended with `code` (0: asked to): a disconnection, unless libmosquitto reported one
    /// already (a handshake that failed, TLS's or the socket's, ends the thread without a report of its own).
    func ended(code: Int32) {
        let unreported = state.withLock { state in
            defer { state.isDisconnected = true }
            return !state.isDisconnected
        }
        if unreported && code != MOSQ_ERR_SUCCESS.rawValue {
            send(.disconnected(code: code, reason: reason(code)))
        }
        wake()
    }

    /// Why a connection ended: what libmosquitto logged last, else its text for `code`.
    private func reason(_ code: Int32) -> String {
        code == 0 ? "disconnected" : lastNote() ?? String(cString: mosquitto_strerror(code))
    }

    func note(_ text: String) {
        note.withLock { $0 = text }
    }

    func lastNote() -> String? {
        note.withLock { $0 }
    }
}
