#if canImport(Glibc)
import Glibc
#endif
import CGPS
import TrackCore

/// Fixes from a gpsd daemon, read through libgps: one `Fix` per TPV report, with DOPs and satellite counts from
/// the latest SKY report.
///
/// This is the only Swift code that calls libgps; struct fields are read through the accessors in `CGPS/shim.h`.
/// A fix is built only from TPV messages. It carries a position only when gpsd's `mode` is 2D or 3D (mode, not
/// `status`, decides whether there is a fix), an altitude only in 3D, and only values libgps reports as finite
/// (libgps uses NaN for "unknown"). `quality` comes from gpsd's `status`, whose numbers are `FixQuality`'s raw
/// values; gpsd 3.22 leaves `status` out for a plain GPS fix and libgps then reads 0 (STATUS_NO_FIX), so 0 next to
/// a position counts as `.gps`. Without a position the quality is `.unknown`.
///
/// When gpsd is absent or goes away, the source reports `.lost` once per outage and retries after 0.25 s, then
/// every half second (`retryDelays`), so it is back within about half a second of gpsd returning (a refused
/// connection to a local port costs next to nothing); a successful reconnection is reported as `.connected` again.
///
/// libgps API versions (`GPSD_API_MAJOR_VERSION`):
/// - 9 (gpsd 3.20) is the oldest supported: `fix.time` became a `timespec`, `altMSL`/`altHAE`/`geoid_sep`
///   replaced `altitude`. Older headers stop the build (see the guard in `shim.h`).
/// - 10 (gpsd 3.21) moved `status` from `gps_data_t` into `gps_fix_t`; `trackd_fix_status` hides the move.
/// - 11 (gpsd 3.22, Debian 12) is what this is built and tested against.
/// - 12 and later (gpsd 3.23+) keep every call and field used here; later releases renamed some `STATUS_*`
///   constants, which is why `status` is mapped by number, not by name.
///
/// Throughout, `gps_open` reports a failure with `errno` set to a negative netlib code rather than the system
/// error, so "connection refused" also stands for an unreachable host or a timeout; `gps_waiting` takes
/// microseconds; `gps_read` returns -1 when gpsd closes the connection.
public struct GPSDSource: FixSource {
    /// The host gpsd listens on (a name, an IPv4 or an IPv6 address).
    public let host: String
    /// gpsd's TCP port (2947 by default).
    public let port: Int

    /// Pauses before successive reconnection attempts; the last one repeats until gpsd answers.
    public static let retryDelays: [Double] = [0.25, 0.5]

    /// How long one wait for gpsd's next message lasts before the stop request is checked again, in seconds.
    static let pollInterval = 0.25

    /// A source reading from gpsd at `host`:`port`; nothing is opened until `run`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { SourceAddress.gpsd(host: host, port: port).description }

    /// Reads from gpsd until the task is cancelled, reconnecting whenever the connection is lost.
    ///
    /// Throws only when the address cannot work at all (an empty host or a port outside 1–65535).
    public func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) async throws {
        guard !host.isEmpty else { throw SourceAddressError.malformed(description, "no gpsd host given") }
        guard (1...65535).contains(port) else {
            throw SourceAddressError.malformed(description, "the port must be a number from 1 to 65535")
        }
        let host = self.host
        let port = self.port
        try await BlockingThread.run(name: "trackd-gpsd") { stop in
            GPSDSource.loop(host: host, port: port, stop: stop, deliver: deliver)
        }
    }

    /// Connects, reads and reconnects until `stop` is requested. Runs on the source's own thread.
    private static func loop(host: String, port: Int, stop: StopSignal, deliver: (SourceEvent) -> Void) {
        let endpoint = GPSDSource.endpoint(host: host, port: port)
        var connection = GPSDConnection()
        var outageReported = false
        var failedAttempts = 0
        deliver(.state(.connecting))
        while !stop.isStopped {
            switch connection.open(host: host, port: port) {
            case .failure(let error):
                if !outageReported {
                    deliver(.state(.lost("waiting for gpsd at \(endpoint): \(error.reason)")))
                    outageReported = true
                }
            case .success:
                let api = "\(trackd_gps_api_major()).\(trackd_gps_api_minor())"
                deliver(.state(.connected("gpsd \(endpoint), libgps API \(api)")))
                outageReported = false
                let outcome = connection.read(until: stop, deliver: deliver)
                connection.close()
                guard case .lost(let reason, let receivedAnything) = outcome else { return }
                // Start the backoff afresh only after a connection that worked, so that a gpsd which accepts
                // and at once drops connections is not hammered.
                if receivedAnything { failedAttempts = 0 }
                deliver(.state(.lost("lost gpsd at \(endpoint): \(reason)")))
                outageReported = true
            }
            let delay = retryDelays[min(failedAttempts, retryDelays.count - 1)]
            failedAttempts += 1
            if !stop.sleep(seconds: delay) { break }
        }
    }

    /// `host:port`, with an IPv6 address in brackets.
    static func endpoint(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// Why a connection to gpsd could not be made.
struct GPSDConnectError: Error {
    /// What went wrong, for the `.lost` state: "connection refused".
    let reason: String
}

/// One libgps session: the heap-allocated `gps_data_t`, the buffer for gpsd's raw messages, and what the last
/// SKY report said. Used on the source's thread only.
struct GPSDConnection: ~Copyable {
    /// How a connection's reading ended.
    enum Outcome {
        /// A stop was requested.
        case stopped
        /// gpsd closed the connection or reading failed; `receivedAnything` tells whether any message arrived.
        case lost(String, receivedAnything: Bool)
    }

    /// Room for one gpsd message; libgps truncates longer ones, and only their start is looked at here.
    private static let messageCapacity = 16 * 1024
    private static let tpvPrefix = Array(#"{"class":"TPV""#.utf8)
    private static let skyPrefix = Array(#"{"class":"SKY""#.utf8)

    private let data: UnsafeMutablePointer<gps_data_t>
    private let message: UnsafeMutablePointer<CChar>
    private var isOpen = false
    private var sky = SkyReport()

    init() {
        guard let data = trackd_gps_new() else { fatalError("out of memory allocating libgps's gps_data_t") }
        self.data = data
        message = .allocate(capacity: GPSDConnection.messageCapacity)
        message.initialize(repeating: 0, count: GPSDConnection.messageCapacity)
    }

    deinit {
        if isOpen { gps_close(data) }
        trackd_gps_free(data)
        message.deallocate()
    }

    /// Connects to gpsd and asks it to stream JSON reports.
    mutating func open(host: String, port: Int) -> Result<Void, GPSDConnectError> {
        trackd_gps_clear(data)
        sky = SkyReport()
        errno = 0
        guard gps_open(host, String(port), data) == 0 else {
            // A failed gps_open allocates nothing, so there is nothing to close.
            return .failure(GPSDConnectError(reason: GPSDConnection.openFailure(code: errno, host: host, port: port)))
        }
        isOpen = true
        // Bound every receive, so that a message cut off mid-line cannot block past a stop request.
        var timeout = timeval(tv_sec: 0, tv_usec: Int(GPSDSource.pollInterval * 1_000_000))
        _ = setsockopt(trackd_gps_socket(data), SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        errno = 0
        guard gps_stream(data, trackd_watch_flags(), nil) == 0 else {
            let reason = "could not send the WATCH request: \(GPSDConnection.systemError(errno))"
            close()
            return .failure(GPSDConnectError(reason: reason))
        }
        return .success(())
    }

    /// Closes the connection, if open.
    mutating func close() {
        guard isOpen else { return }
        gps_close(data)
        isOpen = false
    }

    /// Reads gpsd's messages and delivers a fix for every TPV until the connection fails or a stop is requested.
    mutating func read(until stop: StopSignal, deliver: (SourceEvent) -> Void) -> Outcome {
        let waitMicroseconds = Int32(GPSDSource.pollInterval * 1_000_000)
        var receivedAnything = false
        while !stop.isStopped {
            guard gps_waiting(data, waitMicroseconds) else { continue }
            errno = 0
            let length = gps_read(data, message, Int32(GPSDConnection.messageCapacity))
            if length < 0 {
                let reason = errno == 0 ? "gpsd closed the connection"
                                        : "reading failed: \(GPSDConnection.systemError(errno))"
                return .lost(reason, receivedAnything: receivedAnything)
            }
            guard length > 0 else { continue }  // Part of a message, or a receive timeout.
            receivedAnything = true
            if hasPrefix(GPSDConnection.tpvPrefix) {
                deliver(.fix(currentFix(), receivedAt: MonotonicClock.now()))
            } else if hasPrefix(GPSDConnection.skyPrefix) {
                sky = SkyReport(
                    hdop: finite(trackd_dop_h(data)), vdop: finite(trackd_dop_v(data)), pdop: finite(trackd_dop_p(data)),
                    satellitesUsed: count(trackd_satellites_used(data)),
                    satellitesVisible: count(trackd_satellites_visible(data))
                )
            }
        }
        return .stopped
    }

    /// The TPV libgps has just unpacked, with the latest SKY values.
    private func currentFix() -> Fix {
        var fix = Fix()
        fix.mode = FixMode(rawValue: Int(trackd_fix_mode(data))) ?? .notSeen
        if trackd_fix_has_time(data) != 0 {
            let nanoseconds = Int64(trackd_fix_time_sec(data)) * UTCTime.nanosecondsPerSecond
                + Int64(trackd_fix_time_nsec(data))
            fix.time = UTCTime(nanosecondsSinceEpoch: nanoseconds)
        }
        if fix.mode.hasPosition,
           let latitude = finite(trackd_fix_latitude(data)), let longitude = finite(trackd_fix_longitude(data)) {
            fix.latitude = latitude
            fix.longitude = longitude
            fix.quality = GPSDConnection.quality(status: trackd_fix_status(data))
        }
        if fix.mode == .threeD { fix.altitudeMSL = finite(trackd_fix_alt_msl(data)) }
        fix.geoidSeparation = finite(trackd_fix_geoid_sep(data))
        fix.speed = finite(trackd_fix_speed(data))
        fix.track = finite(trackd_fix_track(data))
        if let eph = finite(trackd_fix_eph(data)) {
            fix.eph = eph
            fix.ephSource = .gpsd
        }
        fix.hdop = sky.hdop
        fix.vdop = sky.vdop
        fix.pdop = sky.pdop
        fix.satellitesUsed = sky.satellitesUsed
        fix.satellitesInView = sky.satellitesVisible
        return fix
    }

    /// The quality of a fix that has a position, from gpsd's `status`.
    ///
    /// gpsd's STATUS_* numbers are `FixQuality`'s raw values, except that 0 (STATUS_NO_FIX) cannot mean "no fix"
    /// next to a 2D or 3D mode: gpsd 3.22 leaves `status` out of the TPV for a plain GPS fix and libgps then reads
    /// STATUS_NO_FIX. So 0 is taken as `.gps`, the weakest quality that has a position. (Without a position the
    /// quality stays `.unknown`, whatever status says.)
    static func quality(status: Int32) -> FixQuality {
        status == 0 ? .gps : FixQuality(rawValue: Int(status)) ?? .unknown
    }

    /// Whether the last message read starts with `prefix`.
    private func hasPrefix(_ prefix: [UInt8]) -> Bool {
        for (offset, byte) in prefix.enumerated() where UInt8(bitPattern: message[offset]) != byte { return false }
        return true
    }

    /// A readable reason for a failed `gps_open`, whose `errno` is a netlib code (negative) or a system error.
    private static func openFailure(code: Int32, host: String, port: Int) -> String {
        switch code {
        case NL_NOCONNECT: "connection refused"
        case NL_NOHOST: "cannot resolve host '\(host)'"
        case NL_NOSERVICE: "no such port '\(port)'"
        case NL_NOSOCK: "cannot create a socket"
        case ..<0: "\(String(cString: gps_errstr(code))) (libgps error \(code))"
        case 0: "gps_open failed without saying why"
        default: systemError(code)
        }
    }

    /// `strerror` for a system error number.
    private static func systemError(_ code: Int32) -> String {
        code == 0 ? "unknown error" : "\(String(cString: strerror(code))) (errno \(code))"
    }
}

/// What gpsd's latest SKY report said about the satellite geometry.
private struct SkyReport {
    var hdop: Double?
    var vdop: Double?
    var pdop: Double?
    var satellitesUsed: Int?
    var satellitesVisible: Int?
}

/// `value`, or `nil` for libgps's NaN ("unknown") and infinities.
private func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

/// A satellite count, or `nil` if libgps has a negative one.
private func count(_ value: Int32) -> Int? { value >= 0 ? Int(value) : nil }
