#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TrackCore
import TrackDigest
import TrackWebClient

/// Who may open the page: the paired devices (kept in `DeviceStore`, looked up through a cache), the pairing codes
/// waiting to be used, and the throttle on wrong codes. Pairing codes live only in memory, timed by the monotonic
/// clock: a board without a real-time clock may set its wall clock hours later, which must not stretch or cut a
/// code's life.
public final class DeviceRegistry: Sendable {
    /// How long a pairing code stays valid.
    public static let codeLifetime: Duration = .seconds(600)
    /// A device's last use is written at most this often (the card is written to once per quarter hour of use,
    /// not once per request).
    static let lastUseResolution: Int64 = 900

    /// A code `trackctl web pair` made, until it is used or expires.
    struct PendingCode: Sendable {
        var digest: String
        var role: WebRole
        var expires: ContinuousClock.Instant
    }

    struct State: Sendable {
        var codes: [PendingCode] = []
        var throttle = PairingThrottle()
        /// Devices seen since trackd-web started, by the digest of their token.
        var known: [String: PairedDevice] = [:]
    }

    /// What became of a pairing attempt.
    public enum PairingOutcome: Sendable, Equatable {
        /// The code was right: the device and its session token (given to the browser once, never stored).
        case paired(PairedDevice, token: String)
        /// No such code, or it expired; the number of wrong codes in a row.
        case wrongCode(inARow: Int)
        /// Too many wrong codes: the code was not even looked at; try again after the wait.
        case throttled(retryAfter: Duration)
    }

    private let store: DeviceStore
    private let state = Mutex(State())

    /// Opens the paired devices' file at `path` (created when missing).
    public init(path: String) throws(WebError) {
        store = try DeviceStore(path: path)
    }

    /// A new one-time pairing code of eight digits for a device of `role`, valid for `codeLifetime`. Someone at the
    /// board asked for it, so the throttle on wrong codes starts again.
    public func newCode(role: WebRole, at now: ContinuousClock.Instant) -> String {
        var generator = SystemRandomNumberGenerator()
        let number = UInt32.random(in: 0..<100_000_000, using: &generator)
        let code = String(repeating: "0", count: 8 - String(number).count) + String(number)
        state.withLock { state in
            state.codes.removeAll { $0.expires <= now }
            state.codes.append(PendingCode(digest: Self.digest(code), role: role, expires: now + Self.codeLifetime))
            state.throttle.reset()
        }
        return code
    }

    /// Whether a pairing code is waiting to be used (trackd-web stays up for it).
    public func hasPendingCodes(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.codes.contains { $0.expires > now } }
    }

    /// Pairs a device with `code` (spaces and dashes ignored): a new device named `deviceName` with the code's role
    /// and a fresh session token, or why not.
    public func pair(code: String, deviceName: String, at now: ContinuousClock.Instant,
                     wallTime: Int64) throws -> PairingOutcome {
        let typed = String(code.filter { $0 != " " && $0 != "-" })
        let claim: Result<PendingCode, PairingRefusal> = state.withLock { state in
            if let wait = state.throttle.wait(at: now) { return .failure(.throttled(wait)) }
            state.codes.removeAll { $0.expires <= now }
            let digest = Self.digest(typed)
            guard let index = state.codes.firstIndex(where: { $0.digest == digest }) else {
                state.throttle.recordWrongCode(at: now)
                return .failure(.wrong(state.throttle.wrongInARow))
            }
            state.throttle.reset()
            return .success(state.codes.remove(at: index))
        }
        let claimed: PendingCode
        switch claim {
        case .failure(.throttled(let wait)): return .throttled(retryAfter: wait)
        case .failure(.wrong(let inARow)): return .wrongCode(inARow: inARow)
        case .success(let code): claimed = code
        }
        let token = Self.newToken()
        let oneLine = deviceName.oneLine
        let name = oneLine.isEmpty ? "device" : String(oneLine.prefix(80))
        let device = try store.add(name: name, role: claimed.role, tokenDigest: Self.digest(token), at: wallTime)
        state.withLock { $0.known[Self.digest(token)] = device }
        return .paired(device, token: token)
    }

    /// The device a session token belongs to, `nil` when the token is unknown or its device revoked. Notes the
    /// use (written to the file at most every `lastUseResolution` seconds).
    public func device(token: String, wallTime: Int64) throws -> PairedDevice? {
        let digest = Self.digest(token)
        var device = state.withLock { $0.known[digest] }
        if device == nil {
            device = try store.device(tokenDigest: digest)
        }
        guard var device, device.revokedAt == nil else { return nil }
        if wallTime - (device.lastUsedAt ?? 0) >= Self.lastUseResolution || wallTime < (device.lastUsedAt ?? 0) {
            try store.touch(id: device.id, at: wallTime)
            device.lastUsedAt = wallTime
        }
        state.withLock { [device] in $0.known[digest] = device }
        return device
    }

    /// Every paired device, revoked ones included.
    public func devices() throws -> [PairedDevice] {
        try store.all()
    }

    /// Ends device `id`'s session at once: its next request is refused. `nil` when there is no such device.
    public func revoke(id: Int64, wallTime: Int64) throws -> PairedDevice? {
        guard let device = try store.revoke(id: id, at: wallTime) else { return nil }
        state.withLock { state in
            for (digest, known) in state.known where known.id == id {
                state.known[digest] = device
            }
        }
        return device
    }

    private static func digest(_ text: String) -> String {
        SHA256.hex(of: text.utf8)
    }

    /// 32 random bytes in hexadecimal, from the kernel's random source (getrandom).
    private static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Why a code was not looked at or not found, inside the registry's lock.
private enum PairingRefusal: Error {
    case throttled(Duration)
    case wrong(Int)
}
